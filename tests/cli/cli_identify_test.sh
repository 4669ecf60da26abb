#!/usr/bin/env bash
# End-to-end tests of `swz identify` and `swz infer` (ctest: cli_identify_test.sh SWZ_BINARY SOURCE_DIR).
# Each check prints "ok" or "FAIL"; the script exits 1 if any failed.
set -uo pipefail
SWZ=${1:?usage: cli_identify_test.sh path/to/swz source_dir}
SRC=${2:?usage: cli_identify_test.sh path/to/swz source_dir}
PHOTO="$SRC/examples/coffee.png"
SWZ_TEST_NAME=identify
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
rgba=(--format R8G8B8A8_UNORM --size 600x400)

# identify: the photo swizzled into a layout; the best candidate must decode it back exactly.
for L in row-major row-major:pitch=4096 std64k "nv-block-linear:gob=tegra,bh=4" intel-tile4 amd-gfx10.3-sw64k-r-x adreno-a6xx xbox360-tiled; do
  "$SWZ" swizzle -q --layout "$L" "$PHOTO" dump.bin || { failed "swizzle $L"; continue; }
  if ! "$SWZ" identify "${rgba[@]}" --top 3 dump.bin >out.txt 2>err.txt; then failed "identify $L: $(cat err.txt)"; continue; fi
  [ "$(wc -l <out.txt)" -eq 3 ] && pass "identify $L: 3 lines" || failed "identify $L: $(cat out.txt)"
  best=$(head -1 out.txt)
  # "<score> <layout>": the layout is accepted verbatim by --layout.
  layout=${best#* }
  if "$SWZ" deswizzle -q --layout "$layout" "${rgba[@]}" dump.bin back.png 2>err.txt && "$SWZ" compare "$PHOTO" back.png >/dev/null; then
    pass "identify $L -> $layout: decodes the photo exactly"
  else failed "identify $L -> $best: does not decode the photo ($(cat err.txt))"; fi
done
"$SWZ" swizzle -q --layout std4k "$PHOTO" dump.bin
if "$SWZ" identify "${rgba[@]}" --top 2 --thumbnails thumbs dump.bin >out.txt 2>err.txt &&
  first=$(sed -n 1p out.txt | awk '{print $2}' | tr ':/ ' '___') && second=$(sed -n 2p out.txt | awk '{print $2}' | tr ':/ ' '___') &&
  [ -s "thumbs/1-$first.png" ] && [ -s "thumbs/2-$second.png" ] && [ "$(ls thumbs | wc -l)" = 2 ]; then
  pass "--thumbnails writes RANK-LAYOUT.png for each candidate (1-$first.png, 2-$second.png)"; else failed "--thumbnails: $(ls thumbs 2>&1) $(cat err.txt)"; fi
# A palette format has no palette to decode a thumbnail with: its indices are drawn as grey, and
# the command succeeds.
"$SWZ" swizzle -q --layout std4k -f R8_UNORM "$PHOTO" p8.bin
rm -rf p8thumbs
if "$SWZ" identify --format P8 --size 600x400 --top 1 --thumbnails p8thumbs p8.bin >out.txt 2>err.txt &&
  [ "$(ls p8thumbs | wc -l)" = 1 ]; then
  pass "--thumbnails of P8 indices"; else failed "--thumbnails of P8: $(cat err.txt)"; fi
# --offset: the same dump behind 100 bytes of junk.
{ head -c 100 /dev/urandom; cat dump.bin; } >shifted.bin
best=$("$SWZ" identify "${rgba[@]}" --top 1 --offset 100 shifted.bin 2>err.txt)
[ "${best#* }" = "std4k offset=100" ] && pass "--offset 100 (printed as offset=100)" || failed "--offset 100: '$best' $(cat err.txt)"
# Errors: exit 1 with a message.
head -c 1000 dump.bin >small.bin
"$SWZ" identify "${rgba[@]}" small.bin >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "^swz: error: .*no layout fits" err.txt && pass "identify: dump too small" || failed "identify small: $(cat err.txt)"
# Any format with one plane is ranked (BC on its blocks' decoded colours); planar ones are refused by name.
"$SWZ" identify --format BC1_UNORM --size 600x400 --top 2 dump.bin >out.txt 2>err.txt
[ $? -eq 0 ] && [ "$(grep -cE '^[0-9.]+ [a-z]' out.txt)" = 2 ] && pass "identify: a BC1 dump is ranked" || failed "identify BC: $(cat err.txt)"
"$SWZ" identify --format NV12 --size 600x400 dump.bin >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "NV12.*single-plane" err.txt && pass "identify: a planar format is refused by name" || failed "identify NV12: $(cat err.txt)"

# infer: probes of several layouts; the printed options must reproduce the probe byte for byte.
python3 -c "
import struct, sys
W, H = 200, 90
sys.stdout.buffer.write(b''.join(struct.pack('<I', i) for i in range(W * H)))" >index.raw
probe=(--format R32_UINT --size 200x90)
for L in row-major row-major:pitch=2048 std64k "nv-block-linear:gob=tegra,bh=2" amd-gfx9-sw64k-s-x intel-tiley "pattern:X0 X1 X2 X3^Y5 Y0 Y1 X4 Y2^X6 Y3 X5 imm=0x40"; do
  "$SWZ" swizzle -q --layout "$L" "${probe[@]}" index.raw probe.bin || { failed "swizzle probe $L"; continue; }
  if ! "$SWZ" infer "${probe[@]}" probe.bin >out.txt 2>err.txt; then failed "infer $L: $(cat err.txt)"; continue; fi
  grep -q "^verified: bytes 0-3" out.txt && pass "infer $L: verified line" || failed "infer $L: $(cat out.txt)"
  eval "set -- $(head -1 out.txt)"
  if "$SWZ" swizzle -q "$@" "${probe[@]}" index.raw again.bin 2>err.txt && cmp -s <(head -c "$(stat -c %s again.bin)" probe.bin) again.bin; then
    pass "infer $L -> $(head -1 out.txt): reproduces the probe"
  else failed "infer $L -> $(head -1 out.txt): does not reproduce ($(cat err.txt))"; fi
done
# Not a probe.
head -c 72000 /dev/urandom >noise.bin
"$SWZ" infer "${probe[@]}" noise.bin >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "not a probe" err.txt && pass "infer: noise is not a probe" || failed "infer noise: $(cat err.txt)"
"$SWZ" infer --format R8_UNORM --size 200x90 probe.bin >out.txt 2>err.txt
[ $? -eq 1 ] && grep -q "4-byte format" err.txt && pass "infer: 1-byte format explains how to probe" || failed "infer R8: $(cat err.txt)"
"$SWZ" infer --help | grep -q "To probe a 1- or 2-byte format" && pass "infer --help explains small formats" || failed "infer --help"

echo "$fails failure(s)"
[ "$fails" -eq 0 ]
