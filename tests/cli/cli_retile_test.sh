#!/usr/bin/env bash
# swz retile (CopyResources): re-tiling a resource from one layout into
# another equals deswizzling it with the first layout and swizzling the linear
# bytes with the second, for several layouts, formats, mips and arrays; and
# bad arguments get a named error and leave no output. Run by ctest:
#   cli_retile_test.sh SWZ_BINARY SOURCE_DIR
# Each check prints "ok" or "FAIL"; the script exits 1 if any failed.
set -uo pipefail
SWZ=$(realpath "${1:?usage: cli_retile_test.sh path/to/swz source_dir}")
SWZ_TEST_NAME=retile
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# retile_case FROM TO TEXTURE-OPTIONS...: random linear bytes swizzled with
# FROM, retiled to TO, must equal the same bytes swizzled with TO.
retile_case() {
  local from=$1 to=$2; shift 2
  local tex=("$@") name="$from->$to ${*}"
  local need
  : >empty.raw
  need=$("$SWZ" swizzle --layout "$from" "${tex[@]}" empty.raw probe.bin 2>&1 | sed -n 's/.*needs exactly \([0-9]*\) bytes.*/\1/p')
  [ -n "$need" ] || { failed "$name: cannot learn the linear size"; return; }
  head -c "$need" /dev/urandom >lin.raw
  "$SWZ" swizzle -q --layout "$from" "${tex[@]}" lin.raw a.bin || { failed "$name: swizzle with $from"; return; }
  "$SWZ" swizzle -q --layout "$to" "${tex[@]}" lin.raw want.bin || { failed "$name: swizzle with $to"; return; }
  expect_ok "$name: retile" "$SWZ" retile -q --from "$from" --to "$to" "${tex[@]}" a.bin b.bin
  cmp -s b.bin want.bin && pass "$name: equals deswizzle-then-swizzle" || failed "$name: differs from deswizzle-then-swizzle"
}

retile_case std64k nv-block-linear --format BC7_UNORM --size 256x128 --mips full
retile_case row-major std64k --format R8G8B8A8_UNORM --size 300x200 --mips 3 --array 2
retile_case std4k amd-gfx10-sw64k-s --format R16G16B16A16_FLOAT --size 100x70 --array 3
retile_case nv-block-linear row-major --format R32_FLOAT --size 64x32x8 --mips 2
retile_case 'pattern:X0 X1 Y0 X2 Y1 X3 Y2 X4' std64k --format R8G8B8A8_UNORM --size 50x40
# --mips 0 is the full chain here too (D3D12_RESOURCE_DESC, texconv), as in the other commands.
retile_case std64k row-major --format R8_UNORM --size 40x24 --mips 0
"$SWZ" retile -q --from std64k --to row-major --format R8_UNORM --size 40x24 --mips full a.bin full.bin
cmp -s b.bin full.bin && pass "retile --mips 0 = --mips full" || failed "retile --mips 0 differs from --mips full"

# The summary line names both layouts.
head -c $((64 * 64)) /dev/urandom >l64.raw
"$SWZ" swizzle -q --layout std64k --format R8_UNORM --size 64x64 l64.raw a64.bin
"$SWZ" retile --from std64k --to row-major --format R8_UNORM --size 64x64 a64.bin out.bin >out.txt 2>err.txt
grep -q "retiled a64.bin (64x64 R8_UNORM, 1 mip) from std64k to row-major into out.bin" out.txt \
  && pass "summary line" || failed "summary line: $(cat out.txt)"

# Errors: named, exit 1, no output left behind.
rm -f none.bin
expect_err "IN shorter than the --from layout" "less than the" \
  "$SWZ" retile --from std64k --to row-major --format R8_UNORM --size 300x300 a64.bin none.bin
[ -e none.bin ] && failed "an output was left after an error" || pass "no output after an error"
expect_err "unknown --to layout" "--to|layout" \
  "$SWZ" retile --from std64k --to no-such-layout --format R8_UNORM --size 64x64 a64.bin none.bin
expect_err "OUT = IN without --in-place" "same file as IN" \
  "$SWZ" retile --from std64k --to row-major --format R8_UNORM --size 64x64 a64.bin a64.bin
expect_err "--format is required" "--format" \
  "$SWZ" retile --from std64k --to row-major --size 64x64 a64.bin none.bin
[ -e none.bin ] && failed "an output was left after an error" || pass "no output after the errors"
cp a64.bin inplace.bin
expect_ok "--in-place" "$SWZ" retile -q --in-place --from std64k --to row-major --format R8_UNORM --size 64x64 inplace.bin inplace.bin
cmp -s inplace.bin out.bin && pass "--in-place result" || failed "--in-place result differs"

echo "$passes passed, $fails failed"
exit $((fails > 0))
