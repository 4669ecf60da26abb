#!/usr/bin/env bash
# Image input and PNG output of the swz command: a TGA, BMP or PNG
# whose header promises more pixels than the file holds is refused before
# decoding (stb_image reads zeros past the end of TGA and BMP files); PNG
# output goes through libpng row by row (stb_image_write overruns the heap at
# 2 GiB). Run by ctest: cli_images_test.sh SWZ_BINARY SOURCE_DIR.
# SWZ_LARGE_TESTS=1 adds a 2 GiB PNG output (minutes on 2 cores, 4.2 GB of memory).
set -uo pipefail
SWZ=${1:?usage: cli_images_test.sh path/to/swz source_dir}
SRC=${2:?usage: cli_images_test.sh path/to/swz source_dir}
SWZ_TEST_NAME=images
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PY=python3  # Debian's python3 has Pillow (python3-pil); a pyenv python3 may not
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

cut_to() { head -c "$2" "$1" >"$3"; }  # cut_to FILE BYTES OUT
size_of() { stat -c %s "$1"; }

# --- hand-made headers (no image library needed) ---------------------------------------------------
# TGA, 18-byte header: id length, colour map type, image type 2 (true colour), colour map spec (5 bytes),
# origin (4 bytes), width and height (little-endian 16-bit), 32 bits per pixel, descriptor.
tga_header() { printf "\\x$(printf %02x "$1")\\x00\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x$(printf %02x $(($2 & 255)))\\x$(printf %02x $(($2 >> 8)))\\x$(printf %02x $(($3 & 255)))\\x$(printf %02x $(($3 >> 8)))\\x20\\x08"; }
{ tga_header 16 30000 30000; head -c 16 /dev/zero; } >header_only.tga
[ "$(size_of header_only.tga)" = 34 ] || failed "header_only.tga is $(size_of header_only.tga) bytes"
expect_err "a 34-byte TGA header promising 30000x30000 pixels" "truncated or corrupt: its TGA header promises 30000x30000 pixels.*3600000034 bytes, but the file has 34" \
  "$SWZ" swizzle -q --layout std64k header_only.tga e.bin
{ tga_header 0 5 3; head -c 60 /dev/urandom; } >ok.tga
expect_ok "a whole hand-made 5x3 TGA" "$SWZ" swizzle -q --layout row-major ok.tga ok.bin
cut_to ok.tga 77 short.tga
expect_err "that TGA one byte short" "TGA header promises 5x3 pixels.*78 bytes, but the file has 77" "$SWZ" swizzle -q --layout row-major short.tga e.bin

# A 36-byte BMP whose info header gives width 0 and height 16777177 (stb would walk every row):
# refused at once, naming the field.
cp "$SRC/fuzz/regressions/fuzz_image_input/slow-bmp-width-0-1" width0.bmp
expect_err "a BMP of width 0" "image 'width0.bmp' is corrupt: its BMP header gives width = 0, height = 16777177" \
  "$SWZ" swizzle -q --layout row-major width0.bmp e.bin
# A 35-byte BMP with 0 bits per pixel and 9176x24576 pixels (stb would allocate the whole 900 MB RGBA
# output before refusing the bit depth): refused at once, naming the field.
cp "$SRC/fuzz/regressions/fuzz_image_input/slow-bmp-0-bits-per-pixel-7c69433e" bpp0.bmp
expect_err "a BMP of 0 bits per pixel" "image 'bpp0.bmp' is corrupt or unsupported: its BMP header gives 0 bits per pixel" \
  "$SWZ" swizzle -q --layout row-major bpp0.bmp e.bin

# --- files written by an image library (Pillow), cut short ------------------------------------------
if "$PY" -c "import PIL" 2>/dev/null; then
  "$PY" - <<'PY'
from PIL import Image
import random
random.seed(18)
im = Image.new("RGBA", (37, 23))
im.putdata([tuple(random.randrange(256) for _ in range(4)) for _ in range(37 * 23)])
im.save("ref.png")
im.save("plain.tga")                      # uncompressed
im.save("rle.tga", compression="tga_rle")
im.convert("RGB").save("rgb.bmp")         # 24-bit rows padded to 4 bytes
im.convert("RGB").save("rgb.png")
im.save("rgba.bmp")
PY
  for f in plain.tga rle.tga rgba.bmp; do
    expect_ok "$f decodes as the PNG" "$SWZ" compare "$f" ref.png
  done
  expect_ok "rgb.bmp decodes as the PNG" "$SWZ" compare rgb.bmp rgb.png
  # The last pixel's last byte: after an 18-byte header (no id, no colour map) and 37x23 4-byte
  # pixels (the TGA 2.0 footer follows); after a 54-byte header and 22 rows of 112 bytes (111
  # padded to 4) and 111 bytes (the padding of the last row may be missing); 32-bit BMP rows
  # need no padding (Pillow writes a 54-byte header there too).
  for c in "plain.tga $((18 + 37 * 23 * 4))" "rgb.bmp $((54 + 112 * 22 + 111))" "rgba.bmp $((54 + 37 * 23 * 4))"; do
    set -- $c
    f=$1
    cut_to "$f" "$2" "whole-$f"
    expect_ok "$f cut after its last pixel still decodes" "$SWZ" swizzle -q --layout std64k "whole-$f" whole.bin
    cut_to "$f" $(($2 - 1)) "cut-$f"
    expect_err "$f one byte short of its last pixel" "truncated or corrupt.*$2 bytes, but the file has $(($2 - 1))" \
      "$SWZ" swizzle -q --layout std64k "cut-$f" e.bin
    n=$(size_of "$f")
    cut_to "$f" $((n / 2)) "half-$f"
    expect_err "$f cut in half" "truncated or corrupt" "$SWZ" swizzle -q --layout std64k "half-$f" e.bin
    "$SWZ" compare "half-$f" ref.png >out.txt 2>err.txt; rc=$?
    [ $rc -eq 2 ] && grep -q "truncated or corrupt" err.txt && pass "compare checks too (exit 2, trouble): half $f" \
      || failed "compare of half $f: rc=$rc $(cat err.txt)"
  done
  cut_to rle.tga 40 cut-rle.tga
  expect_err "run-length TGA cut to 40 bytes" "TGA header promises 37x23 pixels, whose run-length packets take at least" \
    "$SWZ" swizzle -q --layout std64k cut-rle.tga e.bin
else
  echo "skip image-library files: python3 has no PIL"
fi

# --- decoders against an independent one (Pillow): PNG variants through libpng, JPEG through
# libjpeg-turbo, read back as raw RGBA (row-major, 64 pixels = one 256-byte row pitch) ---------
if "$PY" -c "import PIL" 2>/dev/null; then
  "$PY" - <<'PY'
from PIL import Image
import random, struct, zlib
random.seed(181)
W, H = 64, 29
rgba = Image.new("RGBA", (W, H))
rgba.putdata([tuple(random.randrange(256) for _ in range(4)) for _ in range(W * H)])
cases = {
    "rgba8.png": rgba, "rgb8.png": rgba.convert("RGB"), "grey8.png": rgba.convert("L"),
    "greyalpha8.png": rgba.convert("LA"), "palette.png": rgba.convert("RGB").convert("P"),
    "bilevel.png": rgba.convert("1"),
}
for name, im in cases.items():
    im.save(name)
    open(name + ".want", "wb").write(Image.open(name).convert("RGBA").tobytes())
# 16 bits per sample (written by hand: Pillow writes no 16-bit RGBA): swz keeps the high byte.
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
samples = [[random.randrange(65536) for _ in range(W * 4)] for _ in range(H)]
raw = b"".join(b"\0" + struct.pack(">%dH" % (W * 4), *row) for row in samples)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 16, 6, 0, 0, 0))
open("rgba16.png", "wb").write(png + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
open("rgba16.png.want", "wb").write(bytes(v >> 8 for row in samples for v in row))
rgba.convert("RGB").save("photo.jpg", quality=90)
rgba.convert("RGB").save("progressive.jpg", quality=75, progressive=True)
rgba.convert("L").save("grey.jpg")
for name in ("photo.jpg", "progressive.jpg", "grey.jpg"):
    open(name + ".want", "wb").write(Image.open(name).convert("RGBA").tobytes())
data = open("photo.jpg", "rb").read()
open("cut.jpg", "wb").write(data[: len(data) // 2])
sof = data.index(b"\xff\xc0")  # baseline frame header: length, precision, height, width
open("huge.jpg", "wb").write(data[: sof + 5] + struct.pack(">HH", 60000, 60000) + data[sof + 9:])
PY
  for f in rgba8.png rgb8.png grey8.png greyalpha8.png palette.png bilevel.png rgba16.png photo.jpg progressive.jpg grey.jpg; do
    "$SWZ" swizzle -q --layout row-major -f R8G8B8A8_UNORM "$f" "$f.got" 2>err.txt
    cmp -s "$f.got" "$f.want" && pass "$f decodes as Pillow decodes it" || failed "$f: $(cat err.txt) $(cmp "$f.got" "$f.want" 2>&1)"
  done
  expect_err "a JPEG cut in half is an error, not grey rows" "cannot decode image 'cut.jpg': Premature end of JPEG file" \
    "$SWZ" swizzle -q --layout std64k cut.jpg e.bin
  expect_err "a small JPEG promising 60000x60000 pixels" "60000x60000 pixels .* swz refuses more than 4096 decoded bytes per file byte" \
    "$SWZ" swizzle -q --layout std64k huge.jpg e.bin
  cut_to rgba8.png $(($(size_of rgba8.png) - 20)) cut.png
  expect_err "a PNG cut short is an error" "cannot decode image 'cut.png'" "$SWZ" swizzle -q --layout std64k cut.png e.bin
fi

# A PNG whose IHDR promises 60000x60000 grey pixels and whose image data is a few bytes: deflate
# cannot shrink 3.6 GB below 3.5 MB.
"$PY" - <<'PY'
import struct, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 60000, 60000, 8, 0, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"\0" * 60001 * 4)) + chunk(b"IEND", b"")
open("huge.png", "wb").write(png)
PY
expect_err "a tiny PNG promising 60000x60000 pixels" "PNG header promises 60000x60000 pixels, which deflate cannot store" \
  "$SWZ" swizzle -q --layout std64k --format R8_UNORM huge.png e.bin
[ ! -e e.bin ] && pass "no OUT after the refusals" || failed "an OUT was written"

# --- PNG output through libpng ------------------------------------------------------------------
expect_ok "photo to std64k" "$SWZ" swizzle -q --layout std64k "$SRC/examples/coffee.png" photo.bin
for f in R8_UNORM A8_UNORM R8G8_UNORM R8G8B8A8_UNORM B8G8R8A8_UNORM B8G8R8X8_UNORM; do
  expect_ok "$f: PNG out, swizzle it back, same resource" bash -c \
    "'$SWZ' swizzle -q --layout std64k -f $f '$SRC/examples/coffee.png' a.bin && '$SWZ' deswizzle -q --layout std64k -f $f --size 600x400 a.bin a.png && '$SWZ' swizzle -q --layout std64k -f $f a.png b.bin && cmp a.bin b.bin"
done
# --- PNG output of formats that are not 8-bit UNORM: decoded (swz/decode.hpp) ----------------------
# BC1 and BC3 blocks written as DDS files (legacy FourCC DXT1/DXT5) and decoded by Pillow, the
# independent oracle; swz's PNG of the same blocks, swizzled then deswizzled, must agree within the
# one step of rounding the D3D specification leaves open.
if "$PY" -c "import PIL, numpy" 2>/dev/null; then
  for spec in BC1_UNORM:DXT1:8 BC3_UNORM:DXT5:16; do
    IFS=: read -r fmt cc bb <<<"$spec"
    "$PY" - "$cc" "$bb" <<'PY'
import struct, sys, numpy as np
cc, bb = sys.argv[1].encode(), int(sys.argv[2])
w, h = 52, 36  # 13 x 9 blocks
data = np.random.default_rng(bb).integers(0, 256, size=13 * 9 * bb, dtype=np.uint8).tobytes()
open("blocks.bin", "wb").write(data)
pf = struct.pack("<II4sIIIII", 32, 0x4, cc, 0, 0, 0, 0, 0)
hdr = struct.pack("<IIIIIII", 124, 0x81007, h, w, len(data), 0, 1) + b"\0" * 44 + pf + struct.pack("<IIIII", 0x1000, 0, 0, 0, 0)
open("blocks.dds", "wb").write(b"DDS " + hdr + data)
PY
    expect_ok "$fmt: raw blocks to std64k" "$SWZ" swizzle -q --layout std64k -f "$fmt" --size 52x36 blocks.bin bc.bin
    expect_ok "$fmt: std64k to PNG" "$SWZ" deswizzle -q --layout std64k -f "$fmt" --size 52x36 bc.bin bc.png
    if "$PY" - <<'PY'
import numpy as np
from PIL import Image
a = np.asarray(Image.open("bc.png").convert("RGBA")).astype(int)
b = np.asarray(Image.open("blocks.dds").convert("RGBA")).astype(int)
raise SystemExit(0 if a.shape == b.shape and np.abs(a - b).max() <= 1 else 1)
PY
    then pass "$fmt: the PNG matches Pillow's decode of the same blocks"; else failed "$fmt: the PNG differs from Pillow's decode"; fi
  done
  # A channel view: BC3's alpha as grey, opaque.
  expect_ok "BC3 --channel a" "$SWZ" deswizzle -q --layout std64k -f BC3_UNORM --size 52x36 --channel a bc.bin alpha.png
  if "$PY" - <<'PY'
import numpy as np
from PIL import Image
a = np.asarray(Image.open("alpha.png").convert("RGBA")).astype(int)
b = np.asarray(Image.open("blocks.dds").convert("RGBA")).astype(int)
ok = np.abs(a[..., 0] - b[..., 3]).max() <= 1 and (a[..., 0] == a[..., 2]).all() and (a[..., 3] == 255).all()
raise SystemExit(0 if ok else 1)
PY
  then pass "--channel a shows the alpha as opaque grey"; else failed "--channel a"; fi
fi
# ETC2 and ASTC to PNG. ETC2: the planar-mode example of the Khronos Data Format Specification's
# ETC2 chapter (its texels (0,0) and (3,3): (48,129,251), (250,112,124)), tiled 2x1. ASTC 6x6: a
# void-extent block (ASTC specification: its UNORM16 colour) on a 7x6 image of 2x1 blocks.
if "$PY" -c "import PIL, numpy" 2>/dev/null; then
  printf '\x19\x01\xfb\x66\x0b\x2d\x1c\x2d%.0s' 1 2 >etc.bin
  expect_ok "ETC2: raw blocks to std64k" "$SWZ" swizzle -q --layout std64k -f ETC2_R8G8B8_UNORM --size 8x4 etc.bin etc64k.bin
  expect_ok "ETC2: std64k to PNG" "$SWZ" deswizzle -q --layout std64k -f ETC2_R8G8B8_UNORM --size 8x4 etc64k.bin etc.png
  if "$PY" -c "
from PIL import Image
im = Image.open('etc.png').convert('RGBA')
ok = im.size == (8, 4) and all(im.getpixel((x, 0)) == (48, 129, 251, 255) for x in (0, 4)) and im.getpixel((7, 3)) == (250, 112, 124, 255)
raise SystemExit(0 if ok else 1)"; then pass "ETC2 PNG holds the specification's planar texels"; else failed "ETC2 PNG texels"; fi
  printf '\xfc\xfd\xff\xff\xff\xff\xff\xff\x0a\x0a\xc8\xc8\x4d\x4d\xff\xff%.0s' 1 2 >astc.bin
  if "$SWZ" deswizzle -q --layout row-major -f ASTC_6x6_UNORM --size 7x6 astc.bin astc.png 2>err.txt; then
    if "$PY" -c "
from PIL import Image
im = Image.open('astc.png').convert('RGBA')
raise SystemExit(0 if im.size == (7, 6) and set(im.getdata()) == {(10, 200, 77, 255)} else 1)"; then
      pass "ASTC 6x6 void-extent blocks to PNG are their colour"; else failed "ASTC PNG colour"; fi
  elif grep -q "ASTC_6x6_UNORM cannot be decoded: swz was built without libastcenc" err.txt; then
    pass "ASTC to PNG refused, naming libastcenc (this build has none)"
  else
    failed "ASTC to PNG: $(cat err.txt)"
  fi
fi
# Float data: R32_FLOAT 0.5 -> 128; --exposure 1 doubles it to 1.0 -> 255.
printf '\x00\x00\x00\x3f%.0s' 1 2 3 4 >half.bin
expect_ok "R32_FLOAT to PNG" "$SWZ" deswizzle -q --layout row-major --row-pitch 8 -f R32_FLOAT --size 2x2 half.bin f.png
expect_ok "R32_FLOAT to PNG at +1 EV" "$SWZ" deswizzle -q --layout row-major --row-pitch 8 -f R32_FLOAT --size 2x2 --exposure 1 half.bin f1.png
if "$PY" -c "
from PIL import Image
a = Image.open('f.png').convert('RGBA').getpixel((1, 1)); b = Image.open('f1.png').convert('RGBA').getpixel((0, 0))
raise SystemExit(0 if a == (128, 128, 128, 255) and b == (255, 255, 255, 255) else 1)" 2>/dev/null; then
  pass "R32_FLOAT is grey 128, and 255 at +1 EV"
else
  failed "R32_FLOAT PNG values"
fi
# A palette format: P8 indices through a B5G6R5 palette file (red, blue); a big-endian R16 word.
printf '\x01\x00\x01\x00' >idx.bin
printf '\x00\xf8\x1f\x00' >pal.bin
expect_ok "P8 with --palette FILE:FORMAT" "$SWZ" deswizzle -q --layout row-major --row-pitch 2 -f P8 --size 2x2 --palette pal.bin:B5G6R5_UNORM idx.bin p8.png
expect_err "P8 without a palette names --palette" "P8 needs options.palette.*--palette FILE" \
  "$SWZ" deswizzle -q --layout row-major --row-pitch 2 -f P8 --size 2x2 idx.bin p8x.png
printf '\x80\x00\x80\x00' >be16.bin
expect_ok "R16_UNORM --endian big16" "$SWZ" deswizzle -q --layout row-major --row-pitch 4 -f R16_UNORM --size 2x1 --endian big16 be16.bin be.png
if "$PY" -c "
from PIL import Image
p = list(Image.open('p8.png').convert('RGBA').getdata()); b = Image.open('be.png').convert('RGBA').getpixel((0, 0))
raise SystemExit(0 if p[0] == (0, 0, 255, 255) and p[1] == (255, 0, 0, 255) and b[0] == 128 else 1)" 2>/dev/null; then
  pass "the palette's colours and the swapped word"
else
  failed "P8 palette or --endian values"
fi
expect_err "a TYPELESS format to PNG names the fix" "R8G8B8A8_TYPELESS cannot be decoded: TYPELESS.*give a typed member" \
  "$SWZ" deswizzle -q --layout row-major --row-pitch 8 -f R8G8B8A8_TYPELESS --size 2x2 half.bin t.png
[ ! -e t.png ] && pass "no PNG after the refusal" || failed "a PNG was written after the refusal"
# One plane of NV12 does not decode alone: its chroma plane (subresource 1) is refused, not drawn as NV12.
head -c 2564 /dev/zero >nv12.bin
expect_err "NV12's chroma plane to PNG is refused, naming the subresource" \
  "NV12 cannot be decoded: subresource 1 is plane 1 alone" \
  "$SWZ" deswizzle -q --layout row-major -f NV12 --size 4x4 --subresource 1 nv12.bin nv12.png
[ ! -e nv12.png ] && pass "no PNG after the NV12 plane refusal" || failed "a PNG of one NV12 plane was written"
if ! "$SWZ" deswizzle -q --layout row-major -f R32_FLOAT --size 2x2 --channel q half.bin q.png 2>err.txt &&
  grep -q -- "--channel: q not in {rgba,rgb,r,g,b,a}" err.txt; then
  pass "an unknown --channel is refused, listing the choices"
else
  failed "--channel q: $(cat err.txt)"
fi

if [ "${SWZ_LARGE_TESTS:-0}" = 1 ]; then
  # 65536x32768 A8 = 2 GiB of texels, a 4 GiB grey+alpha PNG stream (past stb_image_write's int sizes).
  truncate -s $((65536 * 32768)) a8.bin
  expect_ok "a 2 GiB A8 surface to PNG" "$SWZ" deswizzle -q --layout row-major --format A8_UNORM --size 65536x32768 a8.bin a8.png
  [ "$(od -An -tx1 -j16 -N8 a8.png | tr -d ' ')" = 0001000000008000 ] && pass "its IHDR says 65536x32768" || failed "IHDR of the 2 GiB PNG"
  rm -f a8.bin a8.png
fi

echo "---"
if [ $fails -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "all image checks passed"
