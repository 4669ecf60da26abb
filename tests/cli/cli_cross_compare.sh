#!/usr/bin/env bash
# The same bytes from two builds of the swz command (.ci/arm64.sh: the x86-64
# build and the aarch64 build under qemu), for every built-in layout family:
#   cli_cross_compare.sh REF_SWZ OTHER_SWZ SOURCE_DIR [JOBS]
# REF_SWZ and OTHER_SWZ are commands (OTHER_SWZ may be a wrapper that runs the
# binary under an emulator). For each layout of `REF_SWZ layouts`:
#   - the photo (examples/coffee.png, 600x400) swizzled as R8G8B8A8_UNORM, and
#     random resource bytes deswizzled, by both commands: compared with cmp;
#   - random raw data of odd sizes with a full mip chain (2D arrays of 2 and
#     3D, 4-byte; 2D in 1- and 16-byte formats and BC7): swizzled by both,
#     and random resource bytes deswizzled by both, compared with cmp.
# A combination the reference command refuses (a family without that element
# size or dimension) is left out. Every layout must pass at least one case.
# Each case prints "ok" or "FAIL"; the last line is "N passed, N failed".
set -uo pipefail
REF=${1:?usage: cli_cross_compare.sh REF_SWZ OTHER_SWZ SOURCE_DIR [JOBS]}
OTHER=${2:?usage: cli_cross_compare.sh REF_SWZ OTHER_SWZ SOURCE_DIR [JOBS]}
SRC=${3:?usage: cli_cross_compare.sh REF_SWZ OTHER_SWZ SOURCE_DIR [JOBS]}
JOBS=${4:-2}
REF=$(realpath "$REF") && OTHER=$(realpath "$OTHER") && SRC=$(realpath "$SRC") || exit 1
PHOTO="$SRC/examples/coffee.png"

T=$(mktemp -d "${TMPDIR:-/tmp}/swz-cross-compare.XXXXXX")
trap 'rm -rf "$T"' EXIT

# one_case ID LAYOUT FORMAT SIZE [OPTIONS...]: prints one result line.
# SIZE 'photo': the PNG (600x400, OPTIONS ignored); else WxH of random raw data.
one_case() {
  local id=$1 layout=$2 format=$3 size=$4; shift 4
  local d="$T/$id" in geo
  mkdir -p "$d" && cd "$d" || return 1
  if [ "$size" = photo ]; then
    in=$PHOTO
    geo=(--layout "$layout" --format "$format" --size 600x400)
  else
    in=in.raw
    geo=(--layout "$layout" --format "$format" --size "$size" "$@")
  fi
  local what="${geo[*]}"
  "$REF" info "${geo[@]}" > info.txt 2>ref.err || { echo "FAIL $what: reference info: $(head -c 200 ref.err)"; return 0; }
  local res_B lin_B
  res_B=$(sed -n 's/^size  *\([0-9]*\) bytes.*/\1/p' info.txt)
  lin_B=$(sed -n 's/^linear  *\([0-9]*\) bytes.*/\1/p' info.txt)
  if [ -z "$res_B" ] || [ -z "$lin_B" ]; then
    echo "FAIL $what: no size in '$REF info': $(head -c 300 info.txt)"
    return 0
  fi
  [ "$size" = photo ] || head -c "$lin_B" /dev/urandom > in.raw
  head -c "$res_B" /dev/urandom > res.bin
  local sw=("${geo[@]}")
  [ "$size" = photo ] && sw=(--layout "$layout" --format "$format")  # the PNG gives the size
  for tool in REF OTHER; do
    "${!tool}" swizzle -q "${sw[@]}" "$in" "$tool.bin" 2>"$tool.err" || { echo "FAIL $what: $tool swizzle: $(head -c 200 "$tool.err")"; return 0; }
    "${!tool}" deswizzle -q "${geo[@]}" res.bin "$tool.raw" 2>"$tool.err" || { echo "FAIL $what: $tool deswizzle: $(head -c 200 "$tool.err")"; return 0; }
  done
  if ! cmp -s REF.bin OTHER.bin; then echo "FAIL $what: swizzled bytes differ ($(cmp REF.bin OTHER.bin 2>&1 | head -n1))"; return 0; fi
  if ! cmp -s REF.raw OTHER.raw; then echo "FAIL $what: deswizzled bytes differ ($(cmp REF.raw OTHER.raw 2>&1 | head -n1))"; return 0; fi
  [ "$(stat -c %s REF.bin)" = "$res_B" ] || { echo "FAIL $what: swizzled size $(stat -c %s REF.bin), info says $res_B"; return 0; }
  echo "ok   $what"
  cd "$T" && rm -rf "$d"
}
export -f one_case
export REF OTHER PHOTO T

mapfile -t layouts < <("$REF" layouts | awk '{print $1}' | grep -v -e '^pattern:' -e '\.json$' -e '^FILE')
if [ ${#layouts[@]} -lt 20 ]; then
  echo "FAIL: '$REF layouts' listed ${#layouts[@]} layouts"
  echo "0 passed, 1 failed"
  exit 1
fi
# A pattern layout besides the built-in names.
layouts+=("pattern:X0 X1 X2 X3 Y0^X5 Y1 X4 Y2 post8=Y4 imm=0x40")

# The cases the reference accepts (a family without an element size or
# dimension refuses it at once; those are left out).
cases="$T/cases.txt"
n=0 refused=0
add_case() {  # LAYOUT FORMAT SIZE OPTIONS...
  local size=$3
  [ "$size" = photo ] && size=600x400
  if "$REF" info --layout "$1" --format "$2" --size "$size" "${@:4}" >/dev/null 2>&1; then
    (IFS=$'\t'; echo "$n"$'\t'"$*") >> "$cases"
    n=$((n + 1))
  else
    refused=$((refused + 1))
    return 1
  fi
}
for l in "${layouts[@]}"; do
  before=$n
  add_case "$l" R8G8B8A8_UNORM photo --mips 1
  add_case "$l" R8G8B8A8_UNORM 37x23 --mips full --array 2
  add_case "$l" R8G8B8A8_UNORM 19x7x5 --mips full || add_case "$l" R8G8B8A8_UNORM 19x7x5 --mips 1
  for f in R8_UNORM R32G32B32A32_FLOAT BC7_UNORM; do
    add_case "$l" "$f" 61x9 --mips full
  done
  # Families that place only power-of-two sizes (the consoles' Morton orders)
  # or only 1- and 2-byte elements: sizes and formats they take.
  if [ "$n" -eq "$before" ]; then
    add_case "$l" R8G8B8A8_UNORM 64x32 --mips 1
    add_case "$l" B5G6R5_UNORM 32x32 --mips 1
    add_case "$l" R8_UNORM 64x64 --mips 3
  fi
done
results="$T/results.txt"
# One case per line, its arguments separated by tabs.
xargs -d '\n' -n 1 -P "$JOBS" bash -c 'IFS=$'"'"'\t'"'"' read -r -a a <<< "$1"; one_case "${a[@]}"' _ < "$cases" > "$results"
grep -v '^ok' "$results"
passed=$(grep -c '^ok' "$results")
failed=$(grep -c '^FAIL' "$results")
echo "cross compare: $passed cases identical over ${#layouts[@]} layouts ($refused combinations the reference refuses left out)"
# Every layout must have passed at least one case.
for l in "${layouts[@]}"; do
  if ! grep -qF -- "ok   --layout $l --format" "$results"; then
    echo "FAIL $l: no case ran"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
