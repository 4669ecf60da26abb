#!/usr/bin/env bash
# End-to-end tests of the swz command (run by ctest: cli_test.sh SWZ_BINARY SOURCE_DIR).
# Each check prints "ok" or "FAIL"; the script exits 1 if any failed.
set -uo pipefail
SWZ=${1:?usage: cli_test.sh path/to/swz source_dir}
SRC=${2:?usage: cli_test.sh path/to/swz source_dir}
PHOTO="$SRC/examples/coffee.png"
SWZ_TEST_NAME=cli
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# expect_out DESC EXPECTED CMD...: stdout equals EXPECTED exactly
expect_out() {
  local d=$1 want=$2; shift 2
  local got; got=$("$@" 2>err.txt); local rc=$?
  if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then pass "$d"; else failed "$d: want '$want', got '$got' (rc=$rc $(cat err.txt))"; fi
}
no_leftovers() {
  if ls -a | grep -q '\.tmp-'; then failed "temporary files left: $(ls -a | grep '\.tmp-')"; else pass "no temporary files left"; fi
}
rgba=(--format R8G8B8A8_UNORM)

# --- the README main job ------------------------------------------------------
expect_ok "swizzle the photo to std64k" "$SWZ" swizzle --layout std64k "$PHOTO" photo.std64k.bin
expect_out "std64k resource size (600x400 RGBA8 = 5x4 tiles of 64KB)" 1310720 stat -c %s photo.std64k.bin
expect_ok "deswizzle it to PNG" "$SWZ" deswizzle --layout std64k "${rgba[@]}" --size 600x400 photo.std64k.bin rt.png
expect_ok "round trip is pixel-identical" "$SWZ" compare "$PHOTO" rt.png
grep -q "^identical: 240000 pixels" out.txt && pass "compare reports identical" || failed "compare output: $(cat out.txt)"
if cmp -s photo.std64k.bin <("$SWZ" deswizzle -q --layout std64k "${rgba[@]}" --size 600x400 photo.std64k.bin - 2>/dev/null); then
  failed "swizzled bytes equal linear bytes"; else pass "swizzled bytes differ from linear"; fi

# --- known vector: D3D12 32bpp 64KB masks (xBytesMask 0xAA8F, yMask 0x5570) ----
# pixel (17, 3): xBytes = 68 -> bits 2, 6 -> 4 + 2048; y = 3 -> 16 + 32
expect_out "offset of (17,3), std64k 32bpp" 2100 "$SWZ" offset --layout std64k "${rgba[@]}" --size 600x400 17 3
expect_out "locate 2100" "subresource=0 x=17 y=3 z=0 sample=0 byte=0" "$SWZ" locate --layout std64k "${rgba[@]}" --size 600x400 2100
expect_out "locate 0x837 (hex)" "subresource=0 x=17 y=3 z=0 sample=0 byte=3" "$SWZ" locate --layout std64k "${rgba[@]}" --size 600x400 0x837
expect_out "padding byte" "padding subresource=0" "$SWZ" locate --layout std64k "${rgba[@]}" --size 3x5 65535
expect_err "offset past the resource" "past the end" "$SWZ" locate --layout std64k "${rgba[@]}" --size 3x5 65536
# AMD array slices share one frame (slice 0's offset, Z origins); a padding byte belongs to the
# slice whose bytes [s * 196608, (s + 1) * 196608) hold it (196607 is slice 0's, not slice 2's)
expect_out "AMD array: padding of slice 0" "padding subresource=0" "$SWZ" locate --layout amd-gfx9-sw64k-s "${rgba[@]}" --size 300x7 --array 3 196607
expect_out "AMD array: padding of slice 1" "padding subresource=1" "$SWZ" locate --layout amd-gfx9-sw64k-s "${rgba[@]}" --size 300x7 --array 3 393215
expect_err "coordinate outside the subresource" "x = 3" "$SWZ" offset --layout std64k "${rgba[@]}" --size 3x5 3 0

# --- raw round trips: odd sizes, 3D, BC, mips, arrays, every layout ---------------
head -c 4 /dev/urandom >1x1.raw
head -c 60 /dev/urandom >3x5.raw
head -c $((17 * 9 * 5 * 4)) /dev/urandom >3d.raw
head -c $((3 * 3 * 8)) /dev/urandom >bc1.raw
head -c $(((9 + 4 + 1 + 1) * 8 * 2)) /dev/urandom >bc1m.raw
for L in row-major std64k std4k "pattern:X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2"; do
  for c in "R8G8B8A8_UNORM 1x1 1x1.raw" "R8G8B8A8_UNORM 3x5 3x5.raw" "R8G8B8A8_UNORM 17x9x5 3d.raw" \
           "BC1_UNORM 10x10 bc1.raw" "BC1_UNORM 10x10 bc1m.raw --mips full --array 2"; do
    set -- $c
    f=$1 s=$2 in=$3; shift 3
    if [ "$L" = std4k ] && [ "$s" = 17x9x5 ]; then continue; fi  # no confirmed 4KB 3D brick for 4-byte elements
    if "$SWZ" swizzle -q --layout "$L" --format "$f" --size "$s" "$@" "$in" o.bin 2>err.txt &&
       "$SWZ" deswizzle -q --layout "$L" --format "$f" --size "$s" "$@" o.bin back.raw 2>>err.txt && cmp -s "$in" back.raw; then
      pass "round trip $L $f $s $*"
    else
      failed "round trip $L $f $s $*: $(cat err.txt)"
    fi
  done
done
head -c $((3 * 5 * 12 + 1 * 2 * 12)) /dev/urandom >f3.raw
expect_ok "row-major R32G32B32_FLOAT (12-byte elements), 2 mips" bash -c "'$SWZ' swizzle -q --layout row-major --format R32G32B32_FLOAT --size 3x5 --mips 2 f3.raw f3.bin && '$SWZ' deswizzle -q --layout row-major --format R32G32B32_FLOAT --size 3x5 --mips 2 f3.bin f3.back && cmp f3.raw f3.back"
expect_err "std64k refuses 12-byte elements" "12-byte" "$SWZ" swizzle --layout std64k --format R32G32B32_FLOAT --size 3x5 --mips 2 f3.raw e.bin
# one subresource of many
expect_ok "BC1 with mips and array" "$SWZ" swizzle -q --layout std64k --format BC1_UNORM --size 10x10 --mips full --array 2 bc1m.raw o.bin
expect_ok "deswizzle --subresource 5 raw" "$SWZ" deswizzle -q --layout std64k --format BC1_UNORM --size 10x10 --mips full --array 2 --subresource 5 o.bin s5.raw
expect_out "subresource 5 (mip 1, slice 1) is 2x2 blocks" 32 stat -c %s s5.raw
expect_ok "subresource 5 is the right bytes" cmp s5.raw <(tail -c +$((72 + 32 + 8 + 8 + 72 + 1)) bc1m.raw | head -c 32)

# --- image input: mips, arrays, 3D ---------------------------------------------------
expect_ok "image with --mips full --array 2" "$SWZ" swizzle -q --layout std64k --mips full --array 2 "$PHOTO" m.bin
expect_ok "deswizzle mip 3 of slice 1 to PNG" "$SWZ" deswizzle -q --layout std64k --size 600x400 --mips full --array 2 --subresource 13 m.bin m13.png
expect_ok "decode the mip PNG" "$SWZ" compare m13.png m13.png
grep -q "(75x50," out.txt && pass "mip 3 of 600x400 is 75x50" || failed "mip 3 size: $(cat out.txt)"
expect_ok "slice 1 mip 0 equals the photo" bash -c "'$SWZ' deswizzle -q --layout std64k --size 600x400 --mips full --array 2 --subresource 10 m.bin s10.png && '$SWZ' compare '$PHOTO' s10.png"
expect_ok "3D from an image" "$SWZ" swizzle -q --layout std64k --size 600x400x3 "$PHOTO" v.bin
expect_ok "3D to PNG (slices stacked)" "$SWZ" deswizzle -q --layout std64k --size 600x400x3 v.bin v.png
expect_ok "decode the 3D PNG" "$SWZ" compare v.png v.png
grep -q "(600x1200," out.txt && pass "3 slices stacked vertically" || failed "3D PNG size: $(cat out.txt)"
expect_ok "B8G8R8A8 round trip" bash -c "'$SWZ' swizzle -q --layout std4k -f B8G8R8A8_UNORM '$PHOTO' b.bin && '$SWZ' deswizzle -q --layout std4k -f B8G8R8A8_UNORM --size 600x400 b.bin b.png && '$SWZ' compare '$PHOTO' b.png"
"$SWZ" deswizzle -q --layout std4k -f B8G8R8A8_UNORM --size 600x400 b.bin b.raw 2>/dev/null
"$SWZ" deswizzle -q --layout std4k -f R8G8B8A8_UNORM --size 600x400 m.bin r.raw 2>/dev/null
if [ "$(head -c 4 b.raw | od -An -tx1)" = "$(head -c 4 r.raw | od -An -tx1 | awk '{print " "$3,$2,$1,$4}')" ]; then
  pass "B8G8R8A8 stores blue first"; else failed "B8G8R8A8 byte order"; fi

# --- D3D12 packed mip tail: packed subresources are opaque --------------------------------
pm=(--layout std64k --size 600x400 --mips full --array 2 --mip-tail d3d12 --packed-mips 2,8,1)
expect_ok "swizzle with a packed mip tail" "$SWZ" swizzle "${pm[@]}" "$PHOTO" pm.bin
grep -q "packed mip tail" err.txt && pass "a note names the packed subresources" || failed "no packed note: $(cat err.txt)"
expect_ok "mip 0 of slice 1 round trips" bash -c "'$SWZ' deswizzle -q ${pm[*]} --subresource 10 pm.bin pm10.png && '$SWZ' compare '$PHOTO' pm10.png"
expect_err "a packed subresource cannot be read" "packed mip tail" "$SWZ" deswizzle "${pm[@]}" --subresource 3 pm.bin e.png
expect_out "locate in the packed tail" "packed subresource=2" "$SWZ" locate "${pm[@]}" "${rgba[@]}" 1704036

# --- planar formats (raw): every plane is a subresource ----------------------------------
head -c $(((64 * 48 + 32 * 24 * 2) * 2)) /dev/urandom >nv12.raw
expect_ok "NV12 x2 round trip through a pattern" bash -c "'$SWZ' swizzle -q --pattern 'X0 X1 X2 X3 Y0 Y1 X4 Y2' -f NV12 --size 64x48 --array 2 nv12.raw nv.bin && '$SWZ' deswizzle -q --pattern 'X0 X1 X2 X3 Y0 Y1 X4 Y2' -f NV12 --size 64x48 --array 2 nv.bin nv.back && cmp nv12.raw nv.back"

# --- a resource layout as a driver reports it (JSON): it fixes the texture ------------------
cat >dev.json <<'JSON'
{"format": "R8G8B8A8_UNORM", "width": 600, "height": 400, "mip_levels": 2,
 "patterns": ["X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5 Y4 X6 Y5 X7 Y6 X8", "X0 X1 X2 X3 Y0 Y1 X4 Y2"],
 "mip_transitions": [1, 255, 255, 255, 255],
 "subresources": [{"offset": 0}, {"offset": 1310720, "row_stride": 9728}]}
JSON
expect_ok "swizzle with a resource layout" "$SWZ" swizzle -q --layout dev.json "$PHOTO" dev.bin
expect_ok "deswizzle with a resource layout" bash -c "'$SWZ' deswizzle -q --layout dev.json dev.bin dev0.png && '$SWZ' compare '$PHOTO' dev0.png"
expect_out "offset in mip 1 (slot 1)" 1311284 "$SWZ" offset --layout dev.json --subresource 1 17 3
expect_err "options must agree with the resource layout" "disagrees" "$SWZ" info --layout dev.json --size 64x64

# --- depth pitches in their units: --depth-pitch-B (bytes), --stack-rows (rows), or the one number --------------
stk=(info --pattern 'X0 X1 X2 X3 Y0 Y1 X4 Y2 stack' -f R8G8B8A8_UNORM --size 16x8x4)
pln=(info --pattern 'X0 X1 X2 X3 Y0 Y1 X4 Y2' -f R8G8B8A8_UNORM --size 16x8x4)
expect_ok "--stack-rows: rows between stacked slices" bash -c "'$SWZ' ${stk[*]@Q} --stack-rows 12 | grep -qE ' 12r +0 '"
expect_ok "--depth-pitch is --stack-rows for a stacked pattern" bash -c "'$SWZ' ${stk[*]@Q} --depth-pitch 12 | grep -qE ' 12r +0 '"
expect_ok "--depth-pitch-B: bytes between slices" bash -c "'$SWZ' ${pln[*]@Q} --depth-pitch-B 4096 | grep -qE ' 4096  +0 '"
expect_ok "--depth-pitch is --depth-pitch-B otherwise" bash -c "'$SWZ' ${pln[*]@Q} --depth-pitch 4096 | grep -qE ' 4096  +0 '"
expect_err "--depth-pitch-B on a stacked pattern" "depth_pitch_B = 4096.*give stack_rows" "$SWZ" "${stk[@]}" --depth-pitch-B 4096
expect_err "--stack-rows on a pattern that does not stack" "stack_rows = 12.*give depth_pitch_B" "$SWZ" "${pln[@]}" --stack-rows 12
expect_err "the one number with an explicit form" "not both" "$SWZ" "${stk[@]}" --depth-pitch 12 --stack-rows 12

# --- errors: exit 1, a message, nothing left at OUT -----------------------------------
expect_err "unknown layout lists the built-ins" "row-major, std64k, std4k" "$SWZ" swizzle --layout nope "$PHOTO" e.bin
expect_err "missing JSON layout file" "does not exist" "$SWZ" swizzle --layout nope.json "$PHOTO" e.bin
expect_err "a directory as layout file" "is not a regular file" "$SWZ" swizzle --layout / "$PHOTO" e.bin
# A misspelt key in a pattern file (or a resource layout's pattern) is not dropped with the
# pattern used without it: refused, naming the key; OUT untouched.
printf '{"bits": ["X0", "X1", "X2", "X3", "Y0", "Y1", "Y2", "Y3"], "postambel": {"8": "Y4"}}' >typo.json
expect_err "a misspelt key in a pattern file" "pattern file 'typo.json': pattern JSON: unknown key \"postambel\" \(known: bits, postamble, immediate, flags" "$SWZ" swizzle --layout typo.json "$PHOTO" e.bin
printf 'keep' >kept.bin
expect_err "a misspelt key leaves an existing OUT alone" "unknown key \"postambel\"" "$SWZ" swizzle --layout typo.json "$PHOTO" kept.bin
[ "$(cat kept.bin)" = keep ] && pass "OUT kept after a misspelt pattern key" || failed "OUT changed after a misspelt pattern key"
cat >devtypo.json <<'JSON'
{"format": "R8G8B8A8_UNORM", "width": 600, "height": 400,
 "patterns": [{"bits": ["X0", "X1", "X2", "X3", "Y0", "Y1", "Y2", "X4"], "immediat": "0x10"}],
 "subresources": [{"offset": 0}]}
JSON
expect_err "a misspelt key in a resource layout's pattern" "layout file 'devtypo.json': resource layout: patterns\[0\]: pattern JSON: unknown key \"immediat\"" "$SWZ" swizzle --layout devtypo.json "$PHOTO" e.bin
# A key holding U+0000, an escape sequence or a line break: the message is not cut at the
# U+0000 and no escape reaches the terminal: escaped, the whole message on one line, OUT
# untouched.
printf '{"bits": ["X0", "X1", "Y0", "Y1"], "na\\u0000me\\u001b[31m\\n": 1}' >nulkey.json
expect_err "a key holding U+0000 and an escape" 'unknown key "na\\u0000me\\u001b\[31m\\n" \(known: bits, postamble' "$SWZ" swizzle --layout nulkey.json "$PHOTO" kept.bin
[ "$(wc -l <err.txt)" -eq 1 ] && ! LC_ALL=C grep -q "$(printf '\033')" err.txt && pass "hostile key: one line, no escape byte" || failed "hostile key: $(od -c err.txt | head -5)"
[ "$(cat kept.bin)" = keep ] && pass "OUT kept after a hostile pattern key" || failed "OUT changed after a hostile pattern key"
expect_err "bad pattern text" "pattern" "$SWZ" swizzle --layout "pattern:X0 X1 Q9" "$PHOTO" e.bin
expect_err "image with a BC format" "8-bit UNORM" "$SWZ" swizzle --layout std64k --format BC1_UNORM "$PHOTO" e.bin
expect_err "image size mismatch" "600x400" "$SWZ" swizzle --layout std64k --size 64x64 "$PHOTO" e.bin
expect_err "raw without --size" "needs --size" "$SWZ" swizzle --layout std64k 3x5.raw e.bin
expect_err "raw of the wrong size names both sizes" "has 60 bytes.*needs exactly 72 bytes" "$SWZ" swizzle --layout std64k --format BC1_UNORM --size 10x10 3x5.raw e.bin
expect_err "short resource" "less than the 65536 bytes" "$SWZ" deswizzle --layout std64k "${rgba[@]}" --size 3x5 3x5.raw e.raw
expect_ok "--mips 0 is the full chain (texconv)" bash -c "'$SWZ' swizzle -q --layout std64k --mips 0 '$PHOTO' m0.bin && '$SWZ' swizzle -q --layout std64k --mips full '$PHOTO' mf.bin && cmp m0.bin mf.bin && '$SWZ' info --layout std64k -f R8G8B8A8_UNORM --size 600x400 --mips 0 | grep -q '10 mips'"
expect_err "--mip-tail d3d12 without --packed-mips" "needs --packed-mips" "$SWZ" swizzle --layout std64k --mip-tail d3d12 "$PHOTO" e.bin
expect_err "--packed-mips that do not add up" "mip_levels" "$SWZ" swizzle --layout std64k --mips full --mip-tail d3d12 --packed-mips 3,8,1 "$PHOTO" e.bin
expect_err "standard swizzle refuses MSAA" "MSAA" "$SWZ" swizzle --layout std64k --samples 4 "${rgba[@]}" --size 3x5 3x5.raw e.bin
expect_err "bad --size" "WxH" "$SWZ" swizzle --layout std64k "${rgba[@]}" --size 3by5 3x5.raw e.bin
expect_err "--subresource out of range" "subresource" "$SWZ" deswizzle --layout std64k "${rgba[@]}" --size 3x5 --subresource 1 o.bin e.png
expect_err "layout larger than memory" "memory|overflow|too large|64 bits" "$SWZ" swizzle --layout std64k --array 2000000 "$PHOTO" e.bin
# stdout, devices and symlinks
expect_out "OUT '-' writes to stdout" 960000 bash -c "'$SWZ' deswizzle --layout std64k ${rgba[*]} --size 600x400 photo.std64k.bin - 2>/dev/null | wc -c"
expect_ok "OUT /dev/null is written in place" "$SWZ" deswizzle -q --layout std64k "${rgba[@]}" --size 600x400 photo.std64k.bin /dev/null
[ -c /dev/null ] && pass "/dev/null is still a device" || failed "/dev/null was replaced"
ln -s rt.png link.png
expect_ok "OUT through a symlink" "$SWZ" deswizzle -q --layout std64k --size 600x400 photo.std64k.bin link.png
[ -L link.png ] && pass "the symlink is kept" || failed "the symlink was replaced"
if [ -e e.bin ] || [ -e e.raw ] || [ -e e.png ]; then failed "an OUT file was left after an error"; else pass "no OUT left after errors"; fi
no_leftovers

# --- misc -------------------------------------------------------------------------------
expect_ok "layouts" "$SWZ" layouts
grep -qi "^std4k .*not a D3D12 API layout" out.txt && pass "std4k is marked as not a D3D12 API layout" || failed "layouts: $(cat out.txt)"
grep -q "^pattern:TEXT" out.txt && grep -q "\.json" out.txt && pass "layouts mentions pattern:TEXT and JSON" || failed "layouts: $(cat out.txt)"
"$SWZ" compare "$PHOTO" m13.png >out.txt 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "^different" out.txt && pass "compare of different images exits 1" || failed "compare different: rc=$rc $(cat out.txt)"
"$SWZ" swizzle --layout >/dev/null 2>&1; rc=$?
[ $rc -ne 0 ] && [ $rc -ne 1 ] && pass "CLI11 parse errors keep CLI11's exit code ($rc)" || failed "parse error exit code $rc"

# --- --device gpu (Vulkan compute; lavapipe in CI, hence gpu:any) ---------------------------
"$SWZ" swizzle --layout std64k --mips 3 --device gpu:any "$PHOTO" gpu.bin >out.txt 2>err.txt; rc=$?
if [ $rc -eq 0 ]; then
  "$SWZ" swizzle --layout std64k --mips 3 "$PHOTO" cpu.bin >/dev/null 2>&1
  cmp -s gpu.bin cpu.bin && pass "--device gpu:any swizzle equals the CPU bytes" || failed "--device gpu:any swizzle differs from the CPU"
  expect_ok "--device gpu:any deswizzle" "$SWZ" deswizzle --layout std64k --mips 3 --size 600x400 --device gpu:any gpu.bin gpu.png
  "$SWZ" compare "$PHOTO" gpu.png >/dev/null 2>&1 && pass "--device gpu:any round trip" || failed "--device gpu:any round trip differs"
  # Plain --device gpu refuses a software rasterizer (lavapipe) before reading anything.
  "$SWZ" swizzle --layout std64k --mips 3 --device gpu "$PHOTO" gpu2.bin >out.txt 2>err.txt; rc=$?
  if grep -q "software rasterizer" err.txt; then
    [ $rc -ne 0 ] && [ ! -e gpu2.bin ] && grep -q "gpu:any" err.txt && pass "--device gpu refuses a software rasterizer, naming gpu:any"       || failed "--device gpu on a software rasterizer: rc=$rc $(cat err.txt)"
  else
    [ $rc -eq 0 ] && cmp -s gpu2.bin cpu.bin && pass "--device gpu on a hardware GPU equals the CPU bytes"       || failed "--device gpu: rc=$rc $(cat err.txt)"
  fi
elif [ "${SWZ_REQUIRE_VULKAN:-0}" = 1 ]; then
  failed "--device gpu:any with SWZ_REQUIRE_VULKAN=1: $(cat err.txt)"
else
  grep -q "device gpu" err.txt && pass "--device gpu:any without a Vulkan device is a clear error (skipped the GPU checks)" \
    || failed "--device gpu:any error: $(cat err.txt)"
fi

echo "---"
if [ $fails -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "all CLI checks passed"
