#!/usr/bin/env bash
# Long fuzzing runs (docs/RELIABILITY.md): runs each libFuzzer harness (all,
# or those named) for SECONDS, one after another, from the build .ci/fuzz.sh
# makes (same directory, SWZ_FUZZ_BUILD_DIR, default build-fuzz; built here
# first if needed). -timeout=1: an input slower than 1 s is a failure.
# Prints per harness: executions, exec/s, crashes, slowest input.
#   fuzz/run_long.sh SECONDS [HARNESS...]
#   SWZ_FUZZ_NO_BUILD=1  use the harnesses as built
#   SWZ_FUZZ_OUT  where corpora, crash inputs and logs go (default: a temp dir)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: fuzz/run_long.sh SECONDS [HARNESS...]" >&2
  exit 2
fi
SECS=$1
shift
BUILD_DIR=${SWZ_FUZZ_BUILD_DIR:-build-fuzz}
OUT=${SWZ_FUZZ_OUT:-$(mktemp -d /tmp/swz-fuzz-long.XXXXXX)}
# The harness list and the build: .ci/fuzz.sh's (run with no fuzzing time).
mapfile -t ALL < <(sed -n '/^HARNESSES=(/,/)/p' .ci/fuzz.sh | tr -d '()' | sed 's/HARNESSES=//' | tr ' ' '\n' | grep -v '^$')
HARNESSES=("$@")
[ ${#HARNESSES[@]} -eq 0 ] && HARNESSES=("${ALL[@]}")
if [ -z "${SWZ_FUZZ_NO_BUILD:-}" ]; then
  SWZ_FUZZ_BUILD_DIR="$BUILD_DIR" SWZ_FUZZ_BUILD_ONLY=1 bash .ci/fuzz.sh > "$OUT/build.log" 2>&1 ||
    { tail -n 40 "$OUT/build.log"; echo "run_long: build failed ($OUT/build.log)"; exit 1; }
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "run_long: ${#HARNESSES[@]} harness(es), ${SECS} s each, work in $OUT"
printf '%-24s %-6s %12s %9s %7s %12s\n' harness status executions exec/s crashes slowest_s
failed=0
for h in "${HARNESSES[@]}"; do
  work="$OUT/$h"
  mkdir -p "$work/corpus" "$work/artifacts"
  dirs=("$work/corpus" "fuzz/corpus/$h")
  [ -d "fuzz/regressions/$h" ] && dirs+=("fuzz/regressions/$h")
  status=ok
  "$BUILD_DIR/fuzz/$h" -max_total_time="$SECS" -timeout=1 -rss_limit_mb=2048 -max_len=4096 \
    -report_slow_units=1 -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dirs[@]}" > "$work/log" 2>&1 || status=FAILED
  stat() { grep -o "stat::$1: *[0-9]*" "$work/log" | grep -o '[0-9]*$' | tail -1 || true; }
  runs=$(stat number_of_executed_units)
  eps=$(stat average_exec_per_sec)
  # libFuzzer names the slowest unit so far in "Slowest unit: N s:" lines.
  slow=$(grep -o 'Slowest unit: [0-9]* s' "$work/log" | grep -o '[0-9]*' | sort -n | tail -1 || true)
  crashes=$(find "$work/artifacts" -type f ! -name "slow-unit-*" | wc -l)
  [ "$status" = ok ] || failed=1
  printf '%-24s %-6s %12s %9s %7s %12s\n' "$h" "$status" "${runs:-?}" "${eps:-?}" "$crashes" "${slow:-<1}"
  if [ "$status" != ok ]; then tail -n 30 "$work/log" | sed 's/^/    /'; fi
done
exit $failed
