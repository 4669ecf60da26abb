#!/usr/bin/env bash
# texconv habits of the swz command: several inputs with -o DIR
# (outputs named after the inputs, converted in parallel), -y to overwrite,
# --mips 0 = the full chain, sRGB mips filtered in linear light, odd sizes
# keeping their last row and column. Oracles: single-file conversions, and
# mip values computed here by hand (area-weighted means; the sRGB transfer
# functions of IEC 61966-2-1 evaluated with awk).
# Run by ctest: cli_batch_test.sh SWZ_BINARY SOURCE_DIR
set -uo pipefail
SWZ=$(realpath "${1:?usage: cli_batch_test.sh path/to/swz source_dir}")
SRC=$(realpath "${2:?usage: cli_batch_test.sh path/to/swz source_dir}")
PHOTO="$SRC/examples/coffee.png"
SWZ_TEST_NAME=batch
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# tga OUT W H R,G,B,A ...: an uncompressed 32-bit TGA, rows top to bottom.
hexbyte() { printf "\\x$(printf %02x "$1")"; }
tga() {
  local out=$1 w=$2 h=$3; shift 3
  { printf '\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00'
    hexbyte $((w & 255)); hexbyte $((w >> 8)); hexbyte $((h & 255)); hexbyte $((h >> 8)); printf '\x20\x28'
    local p r g b a
    for p in "$@"; do IFS=, read -r r g b a <<<"$p"; hexbyte "$b"; hexbyte "$g"; hexbyte "$r"; hexbyte "$a"; done
  } >"$out"
}
# mip1 FORMAT W H IMAGE: the bytes of mip 1 (decimal, one line) as swizzle --mips 2 makes them.
mip1() {
  "$SWZ" swizzle -q --layout row-major --format "$1" --mips 2 "$4" m.bin &&
    "$SWZ" deswizzle -q --layout row-major --format "$1" --size "$2x$3" --mips 2 --subresource 1 m.bin m1.raw &&
    od -An -tu1 -v m1.raw | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}

# --- batch mode ---------------------------------------------------------------------------
cp "$PHOTO" a.png
"$SWZ" deswizzle -q --layout row-major --format R8G8B8A8_UNORM --size 600x400 --out-type dds \
  <("$SWZ" swizzle -q --layout row-major a.png -) b.dds 2>/dev/null || failed "make b.dds"
mkdir -p sub && cp a.png sub/d.jpg.png
expect_ok "swizzle three inputs into -o out" "$SWZ" swizzle --layout std64k -o out a.png b.dds sub/d.jpg.png
[ -f out/a.bin ] && [ -f out/b.bin ] && [ -f out/d.jpg.bin ] && pass "outputs named after the inputs (out/a.bin out/b.bin out/d.jpg.bin)" || failed "batch outputs: $(ls out)"
[ "$(grep -c '^swizzled' out.txt)" = 3 ] && pass "one summary per input" || failed "batch summaries: $(cat out.txt)"
"$SWZ" swizzle -q --layout std64k a.png single.bin
cmp -s out/a.bin single.bin && cmp -s out/d.jpg.bin single.bin && pass "batch output equals the single-file conversion" || failed "batch output differs"
"$SWZ" swizzle -q --layout std64k b.dds single_b.bin && cmp -s out/b.bin single_b.bin && pass "batch DDS input" || failed "batch DDS output differs"
expect_err "an existing output needs -y, naming it" "output 'out/a.bin' \(for 'a.png'\) exists; pass -y" "$SWZ" swizzle --layout std64k -o out a.png
touch -d '2000-01-01' out/a.bin
expect_err "a rerun without -y names every existing output" \
  "3 of 3 outputs exist: 'out/a.bin' \(for 'a.png'\), 'out/b.bin' \(for 'b.dds'\), 'out/d.jpg.bin' \(for 'sub/d.jpg.png'\); pass -y" \
  "$SWZ" swizzle --layout std64k -o out a.png b.dds sub/d.jpg.png
[ out/a.bin -nt b.dds ] && failed "a refused rerun touched out/a.bin" || pass "a refused rerun writes nothing"
expect_ok "-y overwrites" "$SWZ" swizzle -q -y --layout std64k -o out a.png
[ out/a.bin -nt b.dds ] && cmp -s out/a.bin single.bin && pass "-y replaced the output" || failed "-y did not replace out/a.bin"
expect_err "two inputs with one output name" "would both be written to 'out/a.bin'" "$SWZ" swizzle -y --layout std64k -o out a.png sub/../a.png
expect_err "standard input in a batch" "standard input" "$SWZ" swizzle --layout std64k -o out2 a.png -
expect_err "without -o, two files only" "takes IN OUT.*-o DIR" "$SWZ" swizzle --layout std64k a.png b.dds c.bin
# many raw inputs, in parallel, deswizzled to PNGs
for i in 1 2 3 4 5 6 7 8; do cp single.bin "r$i.bin"; done
expect_ok "deswizzle 8 inputs to PNG with --jobs 4" "$SWZ" deswizzle -q --layout std64k --size 600x400 --out-type png --jobs 4 -o pngs r1.bin r2.bin r3.bin r4.bin r5.bin r6.bin r7.bin r8.bin
ok=1; for i in 1 2 3 4 5 6 7 8; do "$SWZ" compare -q "$PHOTO" "pngs/r$i.png" || ok=0; done
[ $ok = 1 ] && pass "every parallel PNG equals the photo" || failed "a parallel PNG differs"
expect_ok "deswizzle a batch to raw (default)" "$SWZ" deswizzle -q --layout std64k -f R8G8B8A8_UNORM --size 600x400 -o raws r1.bin
"$SWZ" deswizzle -q --layout std64k -f R8G8B8A8_UNORM --size 600x400 single.bin single.raw
cmp -s raws/r1.raw single.raw && pass "batch raw output named NAME.raw" || failed "batch raw"
head -c 100 single.bin >bad.bin
"$SWZ" deswizzle -q --layout std64k --size 600x400 --out-type png -o pngs2 r1.bin bad.bin r2.bin >out.txt 2>err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "^swz: error: bad.bin: " err.txt && grep -q "1 of 3 conversion(s) failed" err.txt && [ -f pngs2/r1.png ] && [ -f pngs2/r2.png ] && [ ! -e pngs2/bad.png ] \
  && pass "a failing input is named, the others are converted, nothing is left for it" || failed "batch with a bad input: rc=$rc $(cat err.txt) $(ls pngs2)"

# --- --mips 0, odd sizes, sRGB ------------------------------------------------------------------
expect_ok "--mips 0 from an image = --mips full" bash -c "'$SWZ' swizzle -q --layout std4k --mips 0 a.png z0.bin && '$SWZ' swizzle -q --layout std4k --mips full a.png zf.bin && cmp z0.bin zf.bin"
# 5x1 -> 2x1: the second texel covers source [2.5, 5): weights 0.2, 0.4, 0.4 -> 0.4 * 250 = 100 from the last column.
tga odd.tga 5 1 0,0,0,255 0,0,0,255 0,0,0,255 0,0,0,255 250,50,0,255
got=$(mip1 R8G8B8A8_UNORM 5 1 odd.tga)
[ "$got" = "0 0 0 255 100 20 0 255" ] && pass "odd width: the last column counts (5x1 -> 2x1)" || failed "odd width mip: '$got'"
tga oddv.tga 1 5 0,0,0,255 0,0,0,255 0,0,0,255 0,0,0,255 250,50,0,255
got=$(mip1 R8G8B8A8_UNORM 1 5 oddv.tga)
[ "$got" = "0 0 0 255 100 20 0 255" ] && pass "odd height: the last row counts (1x5 -> 1x2)" || failed "odd height mip: '$got'"
# 3x3 -> 1x1: the mean of all nine.
tga nine.tga 3 3 0,0,0,255 10,0,0,255 20,0,0,255 30,0,0,255 40,0,0,255 50,0,0,255 60,0,0,255 70,0,0,255 80,0,0,255
got=$(mip1 R8G8B8A8_UNORM 3 3 nine.tga)
[ "$got" = "40 0 0 255" ] && pass "3x3 -> 1x1 is the mean of all nine texels" || failed "3x3 mip: '$got'"
# even sizes keep the plain 2x2 box (rounded half up): (1 + 2 + 2 + 2) / 4 = 1.75 -> 2
tga even.tga 2 2 1,0,0,255 2,0,0,255 2,0,0,255 2,0,0,255
got=$(mip1 R8G8B8A8_UNORM 2 2 even.tga)
[ "$got" = "2 0 0 255" ] && pass "even size: 2x2 box" || failed "2x2 mip: '$got'"
# sRGB: black and white average to linear 0.5, encoded 1.055 * 0.5^(1/2.4) - 0.055; alpha stays linear.
want=$(awk 'BEGIN { v = 1.055 * 0.5 ^ (1 / 2.4) - 0.055; printf "%d", int(v * 255 + 0.5) }')
tga bw.tga 2 1 0,0,0,0 255,255,255,255
got=$(mip1 R8G8B8A8_UNORM_SRGB 2 1 bw.tga)
[ "$got" = "$want $want $want 128" ] && pass "sRGB mips in linear light ($want, alpha 128)" || failed "sRGB mip: '$got', want '$want $want $want 128'"
got=$(mip1 R8G8B8A8_UNORM 2 1 bw.tga)
[ "$got" = "128 128 128 128" ] && pass "UNORM mips average the stored values" || failed "UNORM mip: '$got'"
got=$(mip1 B8G8R8A8_UNORM_SRGB 2 1 bw.tga)
[ "$got" = "$want $want $want 128" ] && pass "B8G8R8A8_UNORM_SRGB too" || failed "BGRA sRGB mip: '$got'"

echo "---"
[ $fails -eq 0 ] && echo "all cli_batch checks passed" || echo "$fails cli_batch check(s) FAILED"
exit $((fails > 0))
