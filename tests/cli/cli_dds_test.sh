#!/usr/bin/env bash
# End-to-end tests of DDS input and output of the swz command
# (run by ctest: cli_dds_test.sh SWZ_BINARY SOURCE_DIR).
# Each check prints "ok" or "FAIL"; the script exits 1 if any failed.
set -uo pipefail
SWZ=${1:?usage: cli_dds_test.sh path/to/swz source_dir}
SRC=${2:?usage: cli_dds_test.sh path/to/swz source_dir}
PHOTO="$SRC/examples/coffee.png"
DATA="$SRC/tests/data/dds"
SWZ_TEST_NAME=dds
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

same() { local d=$1; if cmp -s "$2" "$3"; then pass "$d"; else failed "$d: $2 and $3 differ"; fi; }
# u32 FILE OFFSET: a little-endian 32-bit word of FILE
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
rgba=(--format R8G8B8A8_UNORM)

# --- the README job: the photo with 5 real mips -> std64k -> DDS -> std64k -------
expect_ok "swizzle the photo with 5 mips" "$SWZ" swizzle --layout std64k --mips 5 "$PHOTO" photo.bin
expect_ok "deswizzle every subresource into a DDS" \
  "$SWZ" deswizzle --layout std64k "${rgba[@]}" --size 600x400 --mips 5 photo.bin photo.dds
# 600x400 + 300x200 + 150x100 + 75x50 + 37x25 texels of 4 bytes, after 148 header bytes
[ "$(stat -c %s photo.dds)" = $((148 + (240000 + 60000 + 15000 + 3750 + 925) * 4)) ] && pass "DDS size" ||
  failed "DDS size $(stat -c %s photo.dds)"
[ "$(u32 photo.dds 28)" = 5 ] && pass "dwMipMapCount 5" || failed "dwMipMapCount $(u32 photo.dds 28)"
[ "$(u32 photo.dds 128)" = 28 ] && pass "dxgiFormat 28" || failed "dxgiFormat $(u32 photo.dds 128)"
expect_ok "swizzle the DDS (format, size, mips from the file)" "$SWZ" swizzle --layout std64k photo.dds again.bin
same "DDS round trip gives the same std64k blob" photo.bin again.bin
expect_ok "options that repeat the file are fine" \
  "$SWZ" swizzle --layout std64k "${rgba[@]}" --size 600x400 --mips 5 --array 1 photo.dds again2.bin
same "... and give the same blob" photo.bin again2.bin
"$SWZ" deswizzle -q --layout std64k "${rgba[@]}" --size 600x400 --mips 5 --subresource 3 photo.bin mip3.raw
tail -c +$((149 + (240000 + 60000 + 15000) * 4)) photo.dds | head -c $((3750 * 4)) >mip3.dds.raw
same "mip 3 in the DDS equals mip 3 deswizzled alone" mip3.raw mip3.dds.raw
"$SWZ" deswizzle -q --layout std64k "${rgba[@]}" --size 600x400 --subresource 0 photo.bin mip0.png
expect_ok "mip 0 is the photo" "$SWZ" compare "$PHOTO" mip0.png
expect_ok "the DDS into std4k" "$SWZ" swizzle --layout std4k photo.dds photo4k.bin
expect_ok "std4k back to DDS" "$SWZ" deswizzle --layout std4k "${rgba[@]}" --size 600x400 --mips 5 photo4k.bin photo4k.dds
same "std4k DDS equals the std64k DDS" photo.dds photo4k.dds

# --- cube maps, arrays, 3D, BC ------------------------------------------------------
head -c $(((16 + 4 + 1) * 8 * 12)) /dev/urandom >bc1cubes.raw   # BC1 16x16, 3 mips, 2 cubes
expect_ok "swizzle raw BC1 cube array" "$SWZ" swizzle --layout std64k --format BC1_UNORM --size 16x16 --mips 3 --array 12 bc1cubes.raw cubes.bin
expect_ok "deswizzle it as cube maps" "$SWZ" deswizzle --layout std64k --format BC1_UNORM --size 16x16 --mips 3 --array 12 --cube cubes.bin cubes.dds
[ "$(u32 cubes.dds 136)" = 4 ] && [ "$(u32 cubes.dds 140)" = 2 ] && pass "DX10 TEXTURECUBE, arraySize 2" ||
  failed "DX10 miscFlag $(u32 cubes.dds 136) arraySize $(u32 cubes.dds 140)"
tail -c +149 cubes.dds >cubes.texels
same "cube texels are the raw input in subresource order" bc1cubes.raw cubes.texels
expect_ok "swizzle the cube DDS" "$SWZ" swizzle --layout std64k cubes.dds cubes2.bin
same "cube round trip" cubes.bin cubes2.bin
grep -q "2 cube maps" out.txt && pass "summary says cube maps" || failed "summary: $(cat out.txt)"

head -c $(((17 * 9 * 5 + 8 * 4 * 2 + 4 * 2 * 1) * 8)) /dev/urandom >vol.raw  # 3D 17x9x5, 3 mips, 8 bytes
expect_ok "swizzle raw 3D" "$SWZ" swizzle --layout std64k --format R16G16B16A16_FLOAT --size 17x9x5 --mips 3 vol.raw vol.bin
expect_ok "3D to DDS" "$SWZ" deswizzle --layout std64k --format R16G16B16A16_FLOAT --size 17x9x5 --mips 3 vol.bin vol.dds
[ "$(u32 vol.dds 132)" = 4 ] && [ "$(u32 vol.dds 24)" = 5 ] && pass "DX10 TEXTURE3D, depth 5" || failed "3D header"
expect_ok "swizzle the 3D DDS" "$SWZ" swizzle --layout std64k vol.dds vol2.bin
same "3D round trip" vol.bin vol2.bin

head -c $(((4 * 4 + 2 * 2 + 1) * 4 * 3)) /dev/urandom >arr.raw  # 16x16 RGBA8 2D array of 3, 3 mips
expect_ok "row-major array to DDS" "$SWZ" swizzle --layout row-major "${rgba[@]}" --size 4x4 --mips 3 --array 3 arr.raw arr.bin
expect_ok "array DDS" "$SWZ" deswizzle --layout row-major "${rgba[@]}" --size 4x4 --mips 3 --array 3 arr.bin arr.dds
[ "$(u32 arr.dds 140)" = 3 ] && [ "$(u32 arr.dds 136)" = 0 ] && pass "DX10 arraySize 3, no cube" || failed "array header"

# --- a legacy DXT5 file made by ImageMagick -------------------------------------------
expect_ok "swizzle a legacy DXT5 DDS with mips" "$SWZ" swizzle --layout std64k "$DATA/im_dxt5_16x8_mips.dds" dxt5.bin
grep -q "16x8 BC3_UNORM, 5 mips" out.txt && pass "read as BC3_UNORM, 5 mips" || failed "summary: $(cat out.txt)"
expect_ok "back to DDS (DX10 header)" "$SWZ" deswizzle --layout std64k --format BC3_UNORM --size 16x8 --mips 5 dxt5.bin dxt5.dds
tail -c +129 "$DATA/im_dxt5_16x8_mips.dds" >a.texels
tail -c +149 dxt5.dds >b.texels
same "BC3 blocks unchanged" a.texels b.texels

# --- errors ------------------------------------------------------------------------------
expect_err "--mips that disagrees with the file" "--mips 4 disagrees with 'photo.dds'" \
  "$SWZ" swizzle --layout std64k --mips 4 photo.dds x.bin
expect_err "--format that disagrees" "--format BC1_UNORM disagrees" \
  "$SWZ" swizzle --layout std64k --format BC1_UNORM photo.dds x.bin
expect_err "--size that disagrees" "--size 600x401 disagrees" "$SWZ" swizzle --layout std64k --size 600x401 photo.dds x.bin
expect_err "--array that disagrees" "--array 2 disagrees" "$SWZ" swizzle --layout std64k --array 2 photo.dds x.bin
head -c 1000 photo.dds >cut.dds
expect_err "truncated DDS" "truncated" "$SWZ" swizzle --layout std64k cut.dds x.bin
printf 'XDS ' >bad.dds; tail -c +5 photo.dds >>bad.dds
expect_err "bad magic" "bad magic" "$SWZ" swizzle --layout std64k bad.dds x.bin
expect_err "legacy L8 file written wrongly by Pillow 9.4" "no DXGI equivalent|without a DXGI" \
  "$SWZ" swizzle --layout std64k "$DATA/pil94_bad_l8_7x2.dds" x.bin
expect_err "--cube without 6*N slices" "multiple of 6" \
  "$SWZ" deswizzle --layout std64k "${rgba[@]}" --size 600x400 --mips 5 --cube photo.bin c.dds
expect_err "--cube with a raw output" "not .dds" "$SWZ" deswizzle --layout std64k "${rgba[@]}" --size 600x400 --cube photo.bin c.raw
expect_err "--subresource with a .dds output" "--subresource" \
  "$SWZ" deswizzle --layout std64k "${rgba[@]}" --size 600x400 --subresource 1 photo.bin c.dds
if ls -a | grep -q '\.tmp-'; then failed "temporary files left"; else pass "no temporary files left"; fi

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
