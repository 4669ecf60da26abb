#!/usr/bin/env bash
# swz info and whole mip chains through the hardware families: the
# driver's level offsets and pitches printed by `swz info --mips full`, and raw
# round trips of every subresource (run by ctest: cli_hw_test.sh SWZ SOURCE_DIR).
set -uo pipefail
SWZ=${1:?usage: cli_hw_test.sh path/to/swz source_dir}
SRC=${2:?usage: cli_hw_test.sh path/to/swz source_dir}
SWZ_TEST_NAME=cli-hw
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# info_level DESC LEVEL OFFSET ROW_B ARGS...: the `swz info` row of mip LEVEL
# (slice 0) has that offset and row_B (bytes between element rows).
info_level() {
  local d=$1 lvl=$2 off=$3 rowb=$4; shift 4
  if ! "$SWZ" info "$@" >info.txt 2>err.txt; then failed "$d: $(cat err.txt)"; return; fi
  local got
  got=$(awk -v l="$lvl" '$1 ~ /^[0-9]+$/ && $2 == l && $3 == 0 { print $7, $12; exit }' info.txt)
  if [ "$got" = "$off $rowb" ]; then pass "$d"; else failed "$d: want '$off $rowb', got '$got'"; cat info.txt; fi
}

# freedreno fd6_layout_test.c: R8_UNORM 129x1 tiled, levels narrower than 16 px linear.
info_level "adreno level 4 (linear, packed)" 4 20480 128 --layout adreno-a6xx --format R8_UNORM --size 129x1 --mips full
info_level "adreno level 7" 7 20864 128 --layout adreno-a6xx --format R8_UNORM --size 129x1 --mips full
info_level "adreno R32G32_UINT 288x739 pitch" 0 0 2560 --layout adreno-a6xx --format R32G32_UINT --size 288x739
# Xenia: RGBA8 300x300 level 1 is 256 texels (1024 bytes) a row; level 8 in the packed tail.
info_level "xbox360 level 1 pitch 256 texels" 1 409600 1024 --layout xbox360-tiled --format R8G8B8A8_UNORM --size 300x300 --mips full
info_level "xbox360 level 8 in the tail" 8 757760 128 --layout xbox360-tiled --format R8G8B8A8_UNORM --size 300x300 --mips full
grep -q "origin 0.8.0" info.txt && pass "xbox360 tail origin printed" || failed "xbox360 tail origin: $(cat info.txt)"
# addrlib GFX10 SW_64KB_S_X: RGBA8 300x200 level 0 after the tail block and levels 2, 1 (384-element pitch).
info_level "amd gfx10 level 0" 0 262144 1536 --layout amd-gfx10-sw64k-s-x:pipes=16 --format R8G8B8A8_UNORM --size 300x200 --mips full
info_level "amd gfx10 level 3 in the tail" 3 0 512 --layout amd-gfx10-sw64k-s-x:pipes=16 --format R8G8B8A8_UNORM --size 300x200 --mips full
# addrlib GFX9 SW_64KB_S: one 384-element pitch for the whole chain; level 2 at block 8, the tail at block 11.
info_level "amd gfx9 level 2" 2 524288 1536 --layout amd-gfx9-sw64k-s --format R8G8B8A8_UNORM --size 300x200 --mips full
info_level "amd gfx9 level 3 in the tail" 3 720896 1536 --layout amd-gfx9-sw64k-s --format R8G8B8A8_UNORM --size 300x200 --mips full
# addrlib GFX9 SW_64KB_S 3D (thick): RGBA8 64x64x64, Z-major chain; level 2 starts the tail at block (0,2,2).
info_level "amd gfx9 3D level 2 in the tail" 2 1048576 256 --layout amd-gfx9-sw64k-s --format R8G8B8A8_UNORM --size 64x64x64 --mips full
# addrlib GFX10 SW_64KB_S 3D (S3): level 0 after the tail block and level 1, 64-element pitch.
info_level "amd gfx10 3D level 0" 0 131072 256 --layout amd-gfx10-sw64k-s --format R8G8B8A8_UNORM --size 64x64x64 --mips full
# addrlib GFX10 SW_256B_S: no tail, the smallest level first; level 0 at 89088 with a 304-element pitch.
info_level "amd gfx10 256-byte level 0" 0 89088 1216 --layout amd-gfx10-sw256b-s --format R8G8B8A8_UNORM --size 300x200 --mips full
# addrlib GFX10.3 SW_64KB_S_X 3D (thick): RGBA8 100x70x40, level 0 after the tail block and levels 2, 1;
# what Addr2ComputeSurfaceInfo reports (derivation in tests/hw/test_hw_amd_3d.cpp).
info_level "amd gfx10.3 3D level 0" 0 393216 512 --layout amd-gfx10.3-sw64k-s-x:pipes=8 --format R8G8B8A8_UNORM --size 100x70x40 --mips full
want="addrlib    pitch 128, height 96, numSlices 48, sliceSize 73728, surfSize 3538944, baseAlign 65536"
grep -qF "$want" info.txt && pass "amd gfx10.3 3D addrlib surface info" || failed "amd gfx10.3 3D addrlib surface info: $(cat info.txt)"
grep -qF "addrlib    block 32x32x16 elements (thick), firstMipIdInTail 3" info.txt && pass "amd 3D addrlib block" ||
  failed "amd 3D addrlib block: $(cat info.txt)"
# GFX9 prints the chain's pitch and height too (SW_64KB_S, RGBA8 300x200: 384 x 512 elements).
"$SWZ" info --layout amd-gfx9-sw64k-s --format R8G8B8A8_UNORM --size 300x200 --mips full >info.txt 2>&1
grep -qF "addrlib    pitch 384, height 256, mipChainPitch 384, mipChainHeight 512, numSlices 1, sliceSize 786432, surfSize 786432, baseAlign 256" info.txt &&
  pass "amd gfx9 addrlib surface info" || failed "amd gfx9 addrlib surface info: $(cat info.txt)"
# row_B of a 3D tile (rows of a block spread over its slices): the element pitch, not the
# block row's bytes over its rows (NVIDIA 64x64x32 RGBA8: 256 B, not 4096).
info_level "nv-block-linear 3D row_B is 64 texels" 0 0 256 --layout nv-block-linear --format R8G8B8A8_UNORM --size 64x64x32
info_level "amd gfx10 3D thick row_B (addrlib pitch 64)" 0 0 256 --layout amd-gfx10-sw64k-s-x --format R8G8B8A8_UNORM --size 64x64x32
# Panfrost test-layout.cpp: ETC2 (BC1-sized) 128x128 level 4 at 10880.
info_level "mali level 4" 4 10880 32 --layout mali-u-interleaved --format BC1_UNORM --size 128x128 --mips full

# Whole chains round-trip (raw: every subresource tightly packed).
for spec in adreno-a6xx xbox360-tiled mali-u-interleaved "intel-tiley:aux=0" "amd-gfx10.3-sw64k-r-x:pipes=8,pbxor=3" \
  "amd-gfx9-sw64k-s-x:pbxor=77" amd-gfx11-sw256b-d amd-gfx9-sw4k-s amd-gfx10-sw4k-s; do
  for shape in "--size 97x61 --mips full --array 2" "--size 40x24x6 --mips full"; do
    # 2D-only tiles; addrlib refuses 3D in the 256-byte modes.
    case "$spec:$shape" in xbox360-tiled:*40x24x6* | intel-*:*40x24x6* | amd-gfx11-sw256b-d:*40x24x6*) continue ;; esac
    # shellcheck disable=SC2086
    bytes=$("$SWZ" info --layout "$spec" --format R8G8B8A8_UNORM $shape | awk '$1 == "linear" { print $2 }')
    head -c "$bytes" /dev/urandom > in.raw
    # shellcheck disable=SC2086
    if "$SWZ" swizzle -q --layout "$spec" --format R8G8B8A8_UNORM $shape in.raw sw.bin 2>err.txt &&
       "$SWZ" deswizzle -q --layout "$spec" --format R8G8B8A8_UNORM $shape sw.bin out.raw 2>>err.txt && cmp -s in.raw out.raw; then
      pass "$spec $shape round trip"
    else
      failed "$spec $shape round trip: $(cat err.txt)"
    fi
  done
done

echo "$passes passed, $fails failed"
exit $((fails > 0))
