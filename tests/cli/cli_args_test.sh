#!/usr/bin/env bash
# Argument checks of the swz command:
# empty coordinate fields are refused, not skipped; an out-of-range number is
# reported as typed with the allowed range; retile reads standard input like
# the other commands; -y is documented (batch mode only; one IN OUT replaces
# OUT as cp does). Run by ctest:
#   cli_args_test.sh SWZ_BINARY SOURCE_DIR
# Each check prints "ok" or "FAIL"; the script exits 1 if any failed.
set -uo pipefail
SWZ=$(realpath "${1:?usage: cli_args_test.sh path/to/swz source_dir}")
SRC=$(realpath "${2:?usage: cli_args_test.sh path/to/swz source_dir}")
SWZ_TEST_NAME=args
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tex=(--layout std64k --format R8_UNORM --size 64x64)

# --- Empty fields: refused naming the query, never read as fewer numbers.
expect_err "offset '3,,4' is refused" "'3,,4'.*field 2 is empty" "$SWZ" offset "${tex[@]}" 3,,4
expect_err "offset '3,4,' is refused" "'3,4,'.*field 3 is empty" "$SWZ" offset "${tex[@]}" 3,4,
expect_err "offset ',3,4' is refused" "',3,4'.*field 1 is empty" "$SWZ" offset "${tex[@]}" ,3,4
expect_err "offset '3,,4' among several names the argument" "'3,,4': coordinate field 2 is empty" "$SWZ" offset "${tex[@]}" 1,1 3,,4
printf '1 2\n3,,4\n' >coords.txt
expect_err "offset: an empty field on stdin names the line" "line 2 of standard input" \
  "$SWZ" offset "${tex[@]}" - <coords.txt
expect_err "locate '5,' is refused" "'5,'.*field 2 is empty" "$SWZ" locate "${tex[@]}" 5,
expect_err "plot --origin '3,,4' is refused" "--origin '3,,4': field 2 is empty" \
  "$SWZ" plot --layout std64k --format R8_UNORM --origin 3,,4 plot.png
[ -e plot.png ] && failed "plot wrote a file after refusing --origin" || pass "plot: nothing written"
# What stays accepted: commas, spaces, both.
for q in "17,3" "17, 3" "17 3"; do
  got=$("$SWZ" offset --layout std64k --format R8G8B8A8_UNORM --size 600x400 "$q" 2>&1)
  [ "$got" = 2100 ] && pass "offset '$q' = 2100" || failed "offset '$q': $got"
done

# --- Out of range: the value as typed and the allowed range. Option values are
# checked while the command line is parsed (CLI11's exit status for a bad
# value, 105); values inside other arguments by swz (exit status 1).
# expect_usage DESC PATTERN CMD...: a command-line error (CLI11's status) with PATTERN on stderr
expect_usage() {
  local d=$1 pat=$2; shift 2
  "$@" >out.txt 2>err.txt; local rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 1 ] && grep -qE -- "$pat" err.txt; then pass "$d"
  else failed "$d (rc=$rc, stderr: $(cat err.txt))"; fi
}
expect_usage "--array past 32 bits" "'99999999999999999999' is out of range \(0 \.\. 4294967295\)" \
  "$SWZ" info "${tex[@]}" --array 99999999999999999999
expect_usage "--array 2^32" "--array: '4294967296' is out of range \(0 \.\. 4294967295\)" \
  "$SWZ" info "${tex[@]}" --array 4294967296
expect_usage "--array -1" "'-1' is not a whole number \(0 \.\. 4294967295\)" "$SWZ" info "${tex[@]}" --array -1
expect_usage "--subresource past 32 bits" "--subresource: '0x100000000' is out of range \(0 \.\. 4294967295\)" \
  "$SWZ" offset "${tex[@]}" --subresource 0x100000000 1,1
expect_usage "--row-pitch past 64 bits" "--row-pitch: '18446744073709551616' is out of range \(0 \.\. 18446744073709551615\)" \
  "$SWZ" info "${tex[@]}" --row-pitch 18446744073709551616
expect_usage "--jobs past 32 bits" "--jobs: '4294967296' is out of range" \
  "$SWZ" swizzle "${tex[@]}" -j 4294967296 -o outdir a.raw b.raw
expect_err "a coordinate past 64 bits" "'18446744073709551616' is out of range \(0 \.\. 18446744073709551615\)" \
  "$SWZ" offset "${tex[@]}" 18446744073709551616,1
expect_err "--offset past 64 bits" "--offset '0x10000000000000000' is out of range \(0 \.\. 18446744073709551615\)" \
  "$SWZ" locate "${tex[@]}" --offset 0x10000000000000000 5
expect_ok "--array 0x2 (hex) is accepted" "$SWZ" info "${tex[@]}" --array 0x2
grep -q "2 array slices" out.txt && pass "--array 0x2 reads as 2" \
  || failed "--array 0x2: $(head -1 out.txt)"

# --- retile reads standard input ('-') as the other commands do.
head -c $((64 * 64)) /dev/urandom >l.raw
"$SWZ" swizzle -q "${tex[@]}" l.raw a.bin || failed "swizzle for retile"
"$SWZ" retile -q --from std64k --to row-major --format R8_UNORM --size 64x64 a.bin want.bin || failed "retile a file"
"$SWZ" retile -q --from std64k --to row-major --format R8_UNORM --size 64x64 - got.bin <a.bin 2>err.txt \
  && cmp -s want.bin got.bin && pass "retile - reads standard input (a redirected file)" \
  || failed "retile - <file: $(cat err.txt)"
cat a.bin | "$SWZ" retile -q --from std64k --to row-major --format R8_UNORM --size 64x64 - piped.bin 2>err.txt \
  && cmp -s want.bin piped.bin && pass "retile - reads standard input (a pipe)" || failed "retile - from a pipe: $(cat err.txt)"
head -c 100 a.bin | "$SWZ" retile -q --from std64k --to row-major --format R8_UNORM --size 64x64 - short.bin 2>err.txt
rc=$?
[ $rc -eq 1 ] && grep -q "standard input has 100 bytes" err.txt && [ ! -e short.bin ] \
  && pass "retile: a short standard input is an error, nothing written" || failed "retile short stdin (rc=$rc): $(cat err.txt)"

# --- retile --offset: the resource starts N bytes into IN (a file or standard input).
{ head -c 4096 /dev/zero; cat a.bin; } >padded.bin
"$SWZ" retile -q --from std64k --to row-major --format R8_UNORM --size 64x64 --offset 0x1000 padded.bin off.bin 2>err.txt \
  && cmp -s want.bin off.bin && pass "retile --offset 0x1000 (a file)" || failed "retile --offset: $(cat err.txt)"
cat padded.bin | "$SWZ" retile -q --from std64k --to row-major --format R8_UNORM --size 64x64 --offset 4096 - off2.bin 2>err.txt \
  && cmp -s want.bin off2.bin && pass "retile --offset 4096 (standard input)" || failed "retile --offset from stdin: $(cat err.txt)"
expect_err "retile --offset past the end" "--offset 999999 is past the end" \
  "$SWZ" retile -q --from std64k --to row-major --format R8_UNORM --size 64x64 --offset 999999 padded.bin off3.bin
# A bad --from or --to layout is reported under the option given, not as "--layout: ...", an
# option retile does not have.
printf '{"bits": ["X0", "X1", "Y0", "Y1"], "postambel": {}}' >typo_rt.json
printf 'keep' >kept_rt.bin
expect_err "retile: a bad --to layout names --to" "^swz: error: --to: pattern file 'typo_rt.json': pattern JSON: unknown key \"postambel\"" \
  "$SWZ" retile -q --from std64k --to typo_rt.json --format R8_UNORM --size 64x64 a.bin kept_rt.bin
expect_err "retile: a bad --from layout names --from" "^swz: error: --from: unknown layout 'nope'" \
  "$SWZ" retile -q --from nope --to row-major --format R8_UNORM --size 64x64 a.bin kept_rt.bin
[ "$(cat kept_rt.bin)" = keep ] && pass "retile: OUT kept after a bad layout" || failed "retile: OUT changed after a bad layout"

# --- -y: batch mode needs it; one IN OUT replaces OUT as cp does; --help says both.
"$SWZ" swizzle --help >help.txt
grep -q "One IN OUT pair replaces an existing OUT without -y" help.txt && grep -q "Batch mode (-o DIR): overwrite" help.txt \
  && pass "swizzle --help documents -y for batches and single files" || failed "swizzle --help: $(grep -- -y, help.txt)"
"$SWZ" deswizzle --help >help.txt
grep -q "One IN OUT pair replaces an existing OUT without -y" help.txt \
  && pass "deswizzle --help documents -y" || failed "deswizzle --help does not document -y for single files"
grep -q "without \`-y\`" "$SRC/README.md" && pass "README documents the single-file rule" \
  || failed "README does not say that one IN OUT replaces OUT without -y"
"$SWZ" swizzle -q "${tex[@]}" l.raw a.bin && pass "one IN OUT: an existing OUT is replaced without -y" \
  || failed "one IN OUT refused an existing OUT"
mkdir -p outdir && cp l.raw in1.raw
"$SWZ" swizzle -q "${tex[@]}" -o outdir in1.raw || failed "batch: first run"
expect_err "batch: an existing output needs -y" "outdir/in1.bin.*exists; pass -y" "$SWZ" swizzle -q "${tex[@]}" -o outdir in1.raw
expect_ok "batch: -y overwrites" "$SWZ" swizzle -q "${tex[@]}" -y -o outdir in1.raw

# --- The README's examples agree with the real output and with examples/run_main.sh.
ex=$(grep -A1 '^swz locate --layout std64k --format R8G8B8A8_UNORM --size 600x400 0x' "$SRC/README.md" | head -2)
off=$(echo "$ex" | head -1 | awk '{ print $NF }')
want=$(echo "$ex" | sed -n '2{s/^# -> //; s/ *(or:.*//; p}')
got=$("$SWZ" locate --layout std64k --format R8G8B8A8_UNORM --size 600x400 "$off" 2>&1)
[ -n "$off" ] && [ "$got" = "$want" ] && pass "README: locate $off prints '$want'" \
  || failed "README: locate '$off' says '$want', swz prints '$got'"
grep -q "locate .*--size \"\$SIZE\" $off)" "$SRC/examples/run_main.sh" \
  && pass "examples/run_main.sh locates the README's byte $off" || failed "examples/run_main.sh locates another byte than the README's $off"
for f in examples/run_main.sh .ci/test.sh; do
  grep -q "CMAKE_CXX_COMPILER_LAUNCHER=ccache" "$SRC/$f" && pass "$f uses ccache when installed" \
    || failed "$f does not use the ccache launcher"
done

# --- --offset near 2^64: the resource would end past 2^64 - 1: refused, not
# wrapped around to small offsets.
expect_err "offset: --offset 2^64-1 is refused" "would end past 2\^64" \
  "$SWZ" offset --layout std64k --format R8G8B8A8_UNORM --size 600x400 --offset 18446744073709551615 17,3
expect_err "info: --offset 0xFFFFFFFFFFF00000 is refused" "would end past 2\^64" \
  "$SWZ" info --layout std64k --format R8G8B8A8_UNORM --size 600x400 --offset 0xFFFFFFFFFFF00000
# --- retile --in-place with --offset would drop the bytes before the resource.
head -c $((4096 + 65536)) /dev/urandom >pre.bin
size_before=$(stat -c %s pre.bin)
expect_err "retile --in-place --offset is refused" "--in-place with --offset 0x1000" \
  "$SWZ" retile --from std64k --to std64k --format R8_UNORM --size 64x64 --offset 0x1000 --in-place pre.bin pre.bin
[ "$(stat -c %s pre.bin)" = "$size_before" ] && pass "retile: IN kept its $size_before bytes" \
  || failed "retile changed IN to $(stat -c %s pre.bin) bytes"

# --- Patterns given inline: an empty one is refused (not read as a 1-byte
# block, i.e. row-major); parse errors quote the whole text.
head -c 4096 /dev/urandom >r8.bin
expect_err "an empty 'pattern:' is refused" "layout 'pattern:': the pattern has no bits" \
  "$SWZ" deswizzle --layout 'pattern:' --format R8_UNORM --size 64x64 r8.bin out-empty.bin
[ -e out-empty.bin ] && failed "deswizzle wrote OUT for an empty pattern" || pass "empty pattern: nothing written"
expect_err "a pattern parse error quotes the text" "layout 'pattern:X0 X1 Q3': bit 2: 'Q3'" \
  "$SWZ" deswizzle --layout 'pattern:X0 X1 Q3' --format R8_UNORM --size 64x64 r8.bin out-bad.bin
# --- A coordinate past 32 bits is named (X, Y, Z or SAMPLE) with its query.
expect_err "offset: Y past 32 bits is named" "Y = 99999999999 in '3,99999999999' does not fit in 32 bits" \
  "$SWZ" offset "${tex[@]}" 3,99999999999
# --- Several queries: each valid one is answered, each bad one is marked "error: ..." in its place
# (stdout) and named on stderr, and the exit status is 1 (the answers to good queries were lost
# when one was bad).
for q in "locate 0 zz 4" "offset 0,0 1,1, 2,2"; do
  # shellcheck disable=SC2086
  "$SWZ" ${q%% *} "${tex[@]}" ${q#* } >out.txt 2>err.txt && rc=0 || rc=$?
  [ $rc -eq 1 ] && [ "$(wc -l <out.txt)" -eq 3 ] && sed -n 2p out.txt | grep -q '^error: ' &&
    ! sed -n 1p out.txt | grep -q error && ! sed -n 3p out.txt | grep -q error &&
    grep -q "^swz: error: 1 of 3 queries could not be answered" err.txt &&
    pass "$q: good queries answered, the bad one marked in its place, exit 1" ||
    failed "$q: rc=$rc, stdout '$(cat out.txt)' stderr '$(cat err.txt)'"
done
printf '0\nzz\n4\n' | "$SWZ" locate "${tex[@]}" - >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <out.txt)" -eq 3 ] && sed -n 2p out.txt | grep -q '^error: .*line 2 of standard input' &&
  grep -q "line 2 of standard input" err.txt &&
  pass "locate -: every line answered as it streams, the bad one marked" || failed "locate - stream: rc=$rc $(cat out.txt err.txt)"
# A standard input that cannot be read (a directory, closed) is an error, not an empty answer.
mkdir -p stdin-dir
"$SWZ" locate "${tex[@]}" - <stdin-dir >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "standard input: it is a directory" err.txt && pass "locate - from a directory is refused" ||
  failed "locate - from a directory: rc=$rc $(cat err.txt)"
"$SWZ" locate "${tex[@]}" - <&- >out.txt 2>err.txt && rc=0 || rc=$?
[ $rc -eq 1 ] && grep -q "standard input: it is closed" err.txt && pass "locate - with stdin closed is refused" ||
  failed "locate - with stdin closed: rc=$rc $(cat err.txt)"

echo "cli_args: $passes passed, $fails failed"
exit $((fails > 0))
