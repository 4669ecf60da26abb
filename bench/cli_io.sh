#!/usr/bin/env bash
# End-to-end speed and memory of the swz command on raw files (bench/cli_io.sh).
#
#   bench/cli_io.sh [SWZ] [WORKDIR]
#
# SWZ defaults to build/bin/swz; WORKDIR (default: a new directory under
# ${TMPDIR:-/tmp}) must have room for about 1 GiB. Swizzles and deswizzles a
# 256 MiB raw file (R8G8B8A8_UNORM 8192x8192, row-major <-> std64k) and copies
# the same file with cp, page cache warm (one untimed run of each first),
# median wall time of $REPS runs each (default 5), interleaved run by run.
# Peak RSS and CPU time (user + system) come from /usr/bin/time -v (Debian
# package "time"). Prints the ratios to cp (wall time, and CPU time, which a
# loaded machine disturbs less) and the peak RSS as a multiple of input +
# output bytes.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
SWZ=${1:-$here/build/bin/swz}
REPS=${REPS:-5}
[ -x "$SWZ" ] || { echo "cli_io.sh: no swz binary at '$SWZ' (build the swz_cli target)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "cli_io.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/swz_cli_io.XXXXXX")}
mkdir -p "$work"
cleanup() { rm -f "$work"/lin.bin "$work"/sw.bin "$work"/back.bin "$work"/cp.bin "$work"/time.txt; }
trap cleanup EXIT

W=8192 H=8192 FMT=R8G8B8A8_UNORM
bytes=$((W * H * 4))
head -c "$bytes" /dev/urandom > "$work/lin.bin"
args=(--layout std64k --format "$FMT" --size "${W}x${H}" --quiet)

run_swizzle()   { "$SWZ" swizzle "${args[@]}" "$work/lin.bin" "$work/sw.bin"; }
run_deswizzle() { "$SWZ" deswizzle "${args[@]}" "$work/sw.bin" "$work/back.bin"; }
run_cp()        { cp "$work/lin.bin" "$work/cp.bin"; }

# Warm-up: page cache, output files present (each run replaces its output).
run_swizzle; run_deswizzle; run_cp
cmp -s "$work/lin.bin" "$work/back.bin" || { echo "cli_io.sh: round trip differs" >&2; exit 1; }
sw_bytes=$(stat -c %s "$work/sw.bin")

# One timed run: prints "seconds max_rss_kib cpu_us".
timed() {
  /usr/bin/time -v -o "$work/time.txt" "$@" > /dev/null
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; t = s }
              /Maximum resident set size/ { r = $2 }
              /User time \(seconds\)/ { u = $2 }
              /System time \(seconds\)/ { k = $2 }
              END { printf "%.4f %d %d\n", t, r, (u + k) * 1000000 }' "$work/time.txt"
}
# /usr/bin/time's wall clock has 10 ms resolution; time the command with date too.
timed_ns() {
  local t0 t1 rss
  t0=$(date +%s%N)
  rss=$(timed "$@" | awk '{ print $2, $3 }')
  t1=$(date +%s%N)
  echo "$(( (t1 - t0) / 1000 )) $rss"
}

declare -a t_sw t_de t_cp r_sw r_de r_cp c_sw c_de c_cp
for ((i = 0; i < REPS; ++i)); do
  read -r t r c < <(timed_ns "$SWZ" swizzle "${args[@]}" "$work/lin.bin" "$work/sw.bin"); t_sw+=("$t"); r_sw+=("$r"); c_sw+=("$c")
  read -r t r c < <(timed_ns "$SWZ" deswizzle "${args[@]}" "$work/sw.bin" "$work/back.bin"); t_de+=("$t"); r_de+=("$r"); c_de+=("$c")
  read -r t r c < <(timed_ns cp "$work/lin.bin" "$work/cp.bin"); t_cp+=("$t"); r_cp+=("$r"); c_cp+=("$c")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
max() { printf '%s\n' "$@" | sort -n | tail -1; }
m_sw=$(median "${t_sw[@]}"); m_de=$(median "${t_de[@]}"); m_cp=$(median "${t_cp[@]}")
u_sw=$(median "${c_sw[@]}"); u_de=$(median "${c_de[@]}"); u_cp=$(median "${c_cp[@]}")
x_sw=$(max "${r_sw[@]}"); x_de=$(max "${r_de[@]}")
io_sw=$((bytes + sw_bytes)); io_de=$((sw_bytes + bytes))

echo "swz cli_io: $FMT ${W}x${H} raw ($((bytes >> 20)) MiB linear, $((sw_bytes >> 20)) MiB std64k), median of $REPS, page cache warm"
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
awk -v sw="$m_sw" -v de="$m_de" -v cp="$m_cp" -v rsw="$x_sw" -v rde="$x_de" -v iosw="$io_sw" -v iode="$io_de" \
    -v usw="$u_sw" -v ude="$u_de" -v ucp="$u_cp" 'BEGIN {
  printf "  cp          %8.1f ms                CPU %7.1f ms\n", cp / 1000, ucp / 1000
  printf "  swizzle     %8.1f ms  %.2fx cp   CPU %7.1f ms  %.2fx cp   peak RSS %7.1f MiB = %.2fx (input + output)\n", sw / 1000, sw / cp, usw / 1000, usw / ucp, rsw / 1024, rsw * 1024 / iosw
  printf "  deswizzle   %8.1f ms  %.2fx cp   CPU %7.1f ms  %.2fx cp   peak RSS %7.1f MiB = %.2fx (input + output)\n", de / 1000, de / cp, ude / 1000, ude / ucp, rde / 1024, rde * 1024 / iode
}'
