#!/bin/bash
# Regenerates the DDS files of this folder with tools other than swz
# (Debian: python3-pil 9.4, imagemagick 6.9). Not run by the tests or CI; the
# files are committed. The pixel values are a formula that test_core_dds.cpp
# recomputes: texel (x, y) = R 16x+8, G 32y+4, B 8(x+y), A 255-12x.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" <<'PY'
import sys
from PIL import Image
tmp = sys.argv[1]
def px(x, y):
    return (16 * x + 8, 32 * y + 4, 8 * (x + y), 255 - 12 * x)
def make(w, h, mode):
    im = Image.new("RGBA", (w, h))
    im.putdata([px(x, y) for y in range(h) for x in range(w)])
    return im.convert(mode) if mode != "RGBA" else im
make(5, 3, "RGBA").save("pil_rgba_5x3.dds")           # DDPF_RGB|ALPHAPIXELS, A8R8G8B8
# Pillow 9.4 writes L and LA with the RGB masks and bit counts (24, 32) of
# RGB / RGBA but 1 / 2 bytes per texel: malformed files, kept as such.
Image.merge("L", [make(7, 2, "RGBA").getchannel("R")]).save("pil94_bad_l8_7x2.dds")
Image.merge("LA", [make(3, 4, "RGBA").getchannel("R"), make(3, 4, "RGBA").getchannel("A")]).save("pil94_bad_la_3x4.dds")
make(16, 8, "RGBA").save(tmp + "/src16x8.png")
make(12, 12, "RGBA").save(tmp + "/src12.png")
PY
convert "$tmp/src16x8.png" -define dds:compression=dxt5 -define dds:mipmaps=4 im_dxt5_16x8_mips.dds
convert "$tmp/src12.png" -define dds:compression=dxt1 -define dds:mipmaps=0 im_dxt1_12x12.dds
convert "$tmp/src16x8.png" -define dds:compression=none -define dds:mipmaps=4 im_bgra_16x8_mips.dds
ls -l ./*.dds
