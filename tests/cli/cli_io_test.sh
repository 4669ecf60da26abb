#!/usr/bin/env bash
# Raw file I/O of swz swizzle / deswizzle without zero-fill passes:
# bytes the layout does not cover (padding, the packed mip tail) come out zero
# on both input paths (a mapped file, and a stream read with read(2)) and
# both output paths (the mapped output file, and a buffer written to a
# stream); the pread fallback and the named temporary file are unit-tested
# (tests/cli/test_cli_file_io.cpp); and
# the progress line on a terminal (a pty from script(1)), silenced by --quiet
# and absent when stderr is not a terminal. Run by ctest:
#   cli_io_test.sh SWZ_BINARY SOURCE_DIR
# Each check prints "ok" or "FAIL"; the script exits 1 if any failed.
set -uo pipefail
SWZ=$(realpath "${1:?usage: cli_io_test.sh path/to/swz source_dir}")
SWZ_TEST_NAME=io
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ones() { head -c "$1" /dev/zero | tr '\0' '\377'; }
nonzero() { tr -d '\000' <"$1" | wc -c; }

# --- Padding: a 300x200 RGBA8 texture in std64k tiles leaves tile padding. Every
# input byte is 0xFF, so the output holds exactly as many non-zero bytes as the
# input has, and everything else (the padding) must be zero.
pad=(--layout std64k --format R8G8B8A8_UNORM --size 300x200 --mips 3)
n=$((300 * 200 * 4 + 150 * 100 * 4 + 75 * 50 * 4))
ones $n >ff.raw
for mode in map stream; do
  if [ $mode = map ]; then
    "$SWZ" swizzle -q "${pad[@]}" ff.raw sw.$mode.bin || failed "$mode: swizzle"
  else
    cat ff.raw | "$SWZ" swizzle -q "${pad[@]}" - - >sw.$mode.bin || failed "$mode: swizzle"
  fi
  size=$(stat -c %s sw.$mode.bin)
  [ "$size" -gt "$n" ] || failed "$mode: the resource ($size bytes) has no padding to check"
  got=$(nonzero sw.$mode.bin)
  [ "$got" -eq "$n" ] && pass "$mode: swizzle writes $n bytes and leaves the padding zero" \
    || failed "$mode: $got non-zero bytes in the resource, want $n"
  if [ $mode = map ]; then
    "$SWZ" deswizzle -q "${pad[@]}" sw.$mode.bin back.$mode.raw || failed "$mode: deswizzle"
  else
    cat sw.$mode.bin | "$SWZ" deswizzle -q "${pad[@]}" - - >back.$mode.raw || failed "$mode: deswizzle"
  fi
  cmp -s ff.raw back.$mode.raw && pass "$mode: round trip" || failed "$mode: round trip differs"
done

# --- The raw output is built in place in the mapped output file (not in a buffer
# written out afterwards), a swizzled resource and a deswizzled raw file both.
"$SWZ" swizzle --verbose "${pad[@]}" ff.raw sw.v.bin 2>v1.txt >/dev/null || failed "swizzle --verbose"
"$SWZ" deswizzle --verbose "${pad[@]}" sw.v.bin back.v.raw 2>v2.txt >/dev/null || failed "deswizzle --verbose"
grep -q "built in place in the mapped output file 'sw.v.bin'" v1.txt \
  && grep -q "built in place in the mapped output file 'back.v.raw'" v2.txt \
  && cmp -s ff.raw back.v.raw \
  && pass "swizzle and deswizzle build the raw output in the mapped file" \
  || failed "output not built in the mapped file: $(grep output: v1.txt v2.txt)"

# --- Packed mip tail: its bytes in the resource stay zero on swizzle, and its
# subresources come out as zeros on deswizzle (of a resource that is all 0xFF).
pm=(--layout std64k --format R8G8B8A8_UNORM --size 600x400 --mips full --array 2 --mip-tail d3d12 --packed-mips 2,8,1)
: >empty.raw
need=$("$SWZ" swizzle "${pm[@]}" empty.raw pm_probe.bin 2>&1 | sed -n 's/.*needs exactly \([0-9]*\) bytes.*/\1/p')
if [ -n "$need" ]; then
  ones "$need" >pm.raw
  "$SWZ" swizzle -q "${pm[@]}" pm.raw pm.bin 2>/dev/null || failed "packed: swizzle"
  "$SWZ" deswizzle -q "${pm[@]}" pm.bin pm.back 2>/dev/null || failed "packed: deswizzle"
  a=$(nonzero pm.bin) b=$(nonzero pm.back)
  [ "$a" -eq "$b" ] && [ "$b" -lt "$need" ] && pass "packed: the tail stays zero ($a of $need bytes written)" \
    || failed "packed: $a non-zero bytes in the resource, $b in the deswizzled file, $need in the input"
  ones "$(stat -c %s pm.bin)" >pmff.bin
  "$SWZ" deswizzle -q "${pm[@]}" pmff.bin pmff.raw 2>/dev/null || failed "packed: deswizzle of 0xFF"
  c=$(nonzero pmff.raw)
  [ "$c" -eq "$b" ] && pass "packed: packed subresources come out as zeros" \
    || failed "packed: $c non-zero bytes from an all-0xFF resource, want $b"
else
  failed "packed: could not learn the raw size"
fi

# --- A 256 MiB raw file: the round trip is exact, both outputs are built in the
# mapped output file, and the peak RSS stays within 1.25x (input + output bytes) (/usr/bin/time,
# Debian package "time", when installed). Speed is measured by bench/cli_io.sh, not here.
big256=(--layout std64k --format R8G8B8A8_UNORM --size 8192x8192)
head -c $((256 << 20)) /dev/urandom >l256.raw
"$SWZ" swizzle --verbose "${big256[@]}" l256.raw s256.bin 2>v256a.txt >/dev/null || failed "256 MiB: swizzle"
"$SWZ" deswizzle --verbose "${big256[@]}" s256.bin b256.raw 2>v256b.txt >/dev/null || failed "256 MiB: deswizzle"
cmp -s l256.raw b256.raw && grep -q "mapped output file" v256a.txt && grep -q "mapped output file" v256b.txt \
  && pass "256 MiB: exact round trip, both outputs built in the mapped file" \
  || failed "256 MiB: round trip or output path wrong: $(grep output: v256a.txt v256b.txt)"
if [ -x /usr/bin/time ]; then
  for dir in swizzle deswizzle; do
    if [ $dir = swizzle ]; then io=(l256.raw s256.bin); else io=(s256.bin b256.raw); fi
    /usr/bin/time -f %M -o rss.txt "$SWZ" $dir -q "${big256[@]}" "${io[@]}" || failed "256 MiB: $dir under time"
    rss_kib=$(tail -1 rss.txt)
    limit_kib=$(( ($(stat -c %s "${io[0]}") + $(stat -c %s "${io[1]}")) * 5 / 4 / 1024 ))
    [ "$rss_kib" -le "$limit_kib" ] && pass "256 MiB: $dir peak RSS $rss_kib KiB <= 1.25x (input + output) = $limit_kib KiB" \
      || failed "256 MiB: $dir peak RSS $rss_kib KiB > $limit_kib KiB"
  done
fi
rm -f l256.raw s256.bin b256.raw

# --- Progress on a terminal ------------------------------------------------------------------
# It shows after 0.5 s: standard input that pauses 1 s after its first MiB makes the job that long.
big=(--layout std64k --format R8_UNORM --size 2048x2048)
head -c $((2048 * 2048)) /dev/urandom >big.raw
slow() { echo "{ head -c 1048576 $1; sleep 1; tail -c +1048577 $1; }"; }
if command -v script >/dev/null; then
  run_pty() { script -q -e -c "$*" pty.txt >/dev/null 2>&1; }
  run_pty "$(slow big.raw) | '$SWZ' swizzle ${big[*]} - big.bin"
  grep -q 'swz swizzle \[.*100% 4.0 MiB / 4.0 MiB .*/s  ETA' pty.txt && pass "progress: swizzle on a pty" \
    || failed "progress: no swizzle progress line: $(cat -v pty.txt)"
  grep -q "swizzled - " pty.txt && pass "progress: the summary still prints" || failed "progress: summary lost"
  run_pty "$(slow big.bin) | '$SWZ' deswizzle ${big[*]} - big.back"
  grep -q 'swz deswizzle \[.*100%' pty.txt && pass "progress: deswizzle on a pty" \
    || failed "progress: no deswizzle progress line: $(cat -v pty.txt)"
  cmp -s big.raw big.back && pass "progress: round trip" || failed "progress: round trip differs"
  run_pty "$(slow big.raw) | '$SWZ' swizzle --quiet ${big[*]} - big.bin"
  grep -q 'ETA' pty.txt && failed "progress: --quiet still shows it" || pass "progress: --quiet silences it"
  run_pty "'$SWZ' swizzle ${pad[*]} ff.raw pad.bin"
  grep -q 'ETA' pty.txt && failed "progress: a job shorter than the delay shows it" || pass "progress: not before the delay"
fi
eval "$(slow big.raw)" | "$SWZ" swizzle "${big[@]}" - big.bin 2>err.txt >/dev/null
grep -q 'ETA' err.txt && failed "progress: shown when stderr is a file" || pass "progress: none when stderr is not a terminal"

# --- locate / offset '-': answers are written in large writes, not one per line ---------------
q=(--layout std64k --format R8G8B8A8_UNORM --size 600x400)
seq 0 7 699999 >offs.txt   # 100,000 offsets
"$SWZ" locate "${q[@]}" - <offs.txt | cat >locs.txt
[ "$(wc -l <locs.txt)" = 100000 ] && [ "$(sed -n 301p locs.txt)" = "$("$SWZ" locate "${q[@]}" 2100)" ] \
  && pass "locate -: 100000 answers, the same as one at a time" || failed "locate -: $(wc -l <locs.txt) answers, line 301 '$(sed -n 301p locs.txt)'"
awk '{ print $1 % 600, int($1 / 600) % 400 }' offs.txt >coords.txt
"$SWZ" offset "${q[@]}" - <coords.txt | cat >offsets.txt
[ "$(wc -l <offsets.txt)" = 100000 ] && [ "$(sed -n 4p offsets.txt)" = "$("$SWZ" offset "${q[@]}" 21 0)" ] \
  && pass "offset -: 100000 answers, the same as one at a time" || failed "offset -: $(wc -l <offsets.txt) answers"
if command -v strace >/dev/null && ! strace -o /dev/null true 2>/dev/null; then
  echo "skip locate -: write count (strace cannot trace here, e.g. ptrace is not allowed)"
elif command -v strace >/dev/null; then
  strace -f -e trace=write -o trace.txt "$SWZ" locate "${q[@]}" - <offs.txt | cat >/dev/null
  writes=$(grep -c '^[0-9]* *write(1,' trace.txt || true)
  [ -n "$writes" ] && [ "$writes" -ge 1 ] && [ "$writes" -le 200 ] && pass "locate -: 100000 answers in $writes writes" \
    || failed "locate -: '$writes' writes for 100000 answers"
else
  failed "strace is not installed (.ci/install-deps.sh installs it): cannot count locate's writes"
fi
# A stream: each answer comes before swz waits for the next line.
coproc LOC { "$SWZ" locate "${q[@]}" -; }
loc_pid=$LOC_PID  # bash unsets LOC_PID once the coprocess has ended
echo 2100 >&"${LOC[1]}"
if read -r -t 10 got <&"${LOC[0]}" && [ "$got" = "$("$SWZ" locate "${q[@]}" 2100)" ]; then
  pass "locate -: an answer comes while standard input stays open"
else
  failed "locate -: no answer within 10 s while standard input stays open"
fi
[ -n "${LOC[1]:-}" ] && eval "exec ${LOC[1]}>&-"
wait "$loc_pid" 2>/dev/null || true

[ $fails -eq 0 ] && echo "all cli_io checks passed" || echo "$fails cli_io check(s) FAILED"
exit $((fails > 0))
