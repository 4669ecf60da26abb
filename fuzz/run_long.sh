#!/usr/bin/env bash
# Long fuzzing runs (docs/RELIABILITY.md): runs each libFuzzer
# harness (all, or those named) for SECONDS with WORKERS processes each, from
# the build .ci/fuzz.sh makes (same directory, SWZ_FUZZ_BUILD_DIR, default
# build-fuzz; built here first unless SWZ_FUZZ_NO_BUILD=1).
#
#   fuzz/run_long.sh SECONDS [HARNESS[:WORKERS]...]
#
# Each harness runs WORKERS libFuzzer processes at once. The default mode
# (SWZ_FUZZ_MODE=jobs) starts them with -jobs=WORKERS -workers=WORKERS: long
# processes sharing one corpus directory; each stops at its first crash,
# timeout or out-of-memory input. SWZ_FUZZ_MODE=fork uses -fork=WORKERS with
# -ignore_crashes/-ignore_timeouts/-ignore_ooms instead, so the run goes on
# past failures (its execution count misses the jobs still running at the
# end). -timeout=1: an input slower than 1 s counts as a timeout;
# -report_slow_units=1 saves every input of 1 s or more as slow-unit-*. After
# the run, each saved slow or timed-out input is replayed alone and timed, so
# the summary names the slowest input in milliseconds.
#
# Summary, one line per harness: workers, seconds it ran, executions (all workers together:
# summed over the workers' logs; in fork mode a lower bound, since the jobs
# still running at the end are stopped uncounted), exec/s (executions / SECONDS),
# crashes, timeouts (> 1 s), slow units (>= 1 s), the slowest replayed input,
# and the target (>= 10 M executions for a parser harness, >= 1 M for
# a copy harness). Exit status 1 when any harness crashed, timed out or ran
# out of memory; targets not met are reported, not failed.
#
#   SWZ_FUZZ_WORKERS=N   workers for a harness named without :WORKERS (default 1)
#   SWZ_FUZZ_PARALLEL=K  harnesses fuzzed at once (default 1, one after another;
#                        "all": every named harness at once)
#   SWZ_FUZZ_NO_BUILD=1  use the harnesses as built
#   SWZ_FUZZ_OUT=DIR     where corpora, saved inputs and logs go (default: a temp dir)
#   SWZ_FUZZ_UNTIL_TARGET=1  each worker also stops after its share of the
#                        harness's target (-runs=ceil(target / WORKERS)),
#                        so SECONDS is an upper bound: on a small machine, run
#                        the harnesses one or two at a time until each reaches
#                        its target; exec/s is then over each harness's own time
#
# The 16-core run of docs/RELIABILITY.md ("Long runs"):
#   SWZ_FUZZ_NO_BUILD=1 SWZ_FUZZ_PARALLEL=all SWZ_FUZZ_FLAGS=-entropic=0 fuzz/run_long.sh 540 fuzz_dds:1 ...
#   (the exact lines and the libraries the host needs: "Long runs: what
#   the targets need, and the command")
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ $# -lt 1 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: fuzz/run_long.sh SECONDS [HARNESS[:WORKERS]...]" >&2
  exit 2
fi
SECS=$1
shift
BUILD_DIR=${SWZ_FUZZ_BUILD_DIR:-build-fuzz}
OUT=${SWZ_FUZZ_OUT:-$(mktemp -d /tmp/swz-fuzz-long.XXXXXX)}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
DEFAULT_WORKERS=${SWZ_FUZZ_WORKERS:-1}
# The harness list and the build: .ci/fuzz.sh's (run with no fuzzing time).
mapfile -t ALL < <(sed -n '/^HARNESSES=(/,/)/p' .ci/fuzz.sh | tr -d '()' | sed 's/HARNESSES=//' | tr ' ' '\n' | grep -v '^$')
SPECS=("$@")
[ ${#SPECS[@]} -eq 0 ] && SPECS=("${ALL[@]}")
NAMES=()
WORKERS=()
for s in "${SPECS[@]}"; do
  h=${s%%:*}
  w=$DEFAULT_WORKERS
  [ "$s" != "$h" ] && w=${s#*:}
  if ! [[ $w =~ ^[1-9][0-9]*$ ]]; then
    echo "run_long: bad worker count in '$s'" >&2
    exit 2
  fi
  if ! printf '%s\n' "${ALL[@]}" | grep -qx "$h"; then
    echo "run_long: no harness '$h' (known: ${ALL[*]})" >&2
    exit 2
  fi
  NAMES+=("$h")
  WORKERS+=("$w")
done
PAR=${SWZ_FUZZ_PARALLEL:-1}
MODE=${SWZ_FUZZ_MODE:-jobs}
FLAGS=${SWZ_FUZZ_FLAGS:-}
ROOT=$PWD
BIN_DIR=$ROOT/$BUILD_DIR/fuzz
[[ $BUILD_DIR = /* ]] && BIN_DIR=$BUILD_DIR/fuzz
if [ "$MODE" != jobs ] && [ "$MODE" != fork ]; then
  echo "run_long: SWZ_FUZZ_MODE must be jobs or fork" >&2
  exit 2
fi
[ "$PAR" = all ] && PAR=${#NAMES[@]}
if [ -z "${SWZ_FUZZ_NO_BUILD:-}" ]; then
  SWZ_FUZZ_BUILD_DIR="$BUILD_DIR" SWZ_FUZZ_BUILD_ONLY=1 bash .ci/fuzz.sh > "$OUT/build.log" 2>&1 ||
    { tail -n 40 "$OUT/build.log"; echo "run_long: build failed ($OUT/build.log)"; exit 1; }
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Targets (docs/RELIABILITY.md): parsers 10 M executions, copy harnesses 1 M.
target_of() {
  case $1 in
    fuzz_copy_* | fuzz_clear) echo 1000000 ;;
    *) echo 10000000 ;;
  esac
}

run_one() {  # run_one HARNESS WORKERS
  local h=$1 w=$2 work="$OUT/$1" t0=$SECONDS
  mkdir -p "$work/corpus" "$work/artifacts" "$work/logs"
  local dirs=("$work/corpus" "$ROOT/fuzz/corpus/$h")
  [ -d "fuzz/regressions/$h" ] && dirs+=("$ROOT/fuzz/regressions/$h")
  local common=(-max_total_time="$SECS" -timeout=1 -report_slow_units=1 -rss_limit_mb=2048 -max_len=4096
                -print_final_stats=1 -artifact_prefix="$work/artifacts/")
  if [ -n "${SWZ_FUZZ_UNTIL_TARGET:-}" ]; then
    local tgt
    tgt=$(target_of "$h")
    common+=(-runs=$(((tgt + w - 1) / w)))
  fi
  # New inputs go to the first directory (a scratch copy); the seeds stay as they are.
  local rc=0
  if [ "$MODE" = fork ]; then
    "$BIN_DIR/$h" -fork="$w" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 "${common[@]}" $FLAGS "${dirs[@]}" \
      > "$work/log" 2>&1 || rc=$?
  else
    # -jobs: W long-lived processes (logs/fuzz-K.log) sharing the corpus directory; each stops at
    # its first crash or timeout.
    (cd "$work/logs" && "$BIN_DIR/$h" -jobs="$w" -workers="$w" "${common[@]}" $FLAGS "${dirs[@]}" > "$work/log" 2>&1) ||
      rc=$?
  fi
  echo $rc > "$work/rc"
  echo $((SECONDS - t0)) > "$work/seconds"
}

start=$SECONDS
echo "run_long: ${#NAMES[@]} harness(es), ${SECS} s each, ${PAR} at a time, work in $OUT"
pids=()
for i in "${!NAMES[@]}"; do
  run_one "${NAMES[$i]}" "${WORKERS[$i]}" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$PAR" ]; then
    # The next harness starts as soon as any running one ends.
    wait -n "${pids[@]}" || true
    alive=()
    for p in "${pids[@]}"; do kill -0 "$p" 2> /dev/null && alive+=("$p"); done
    pids=("${alive[@]}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || true; done
wall=$((SECONDS - start))

# Replays one saved input alone; prints its wall time in ms, less the harness's start-up (an empty
# input replayed the same way).
replay_ms() {
  local h=$1 f=$2 t0 t1
  t0=$(date +%s%N)
  timeout 60 "$BIN_DIR/$h" -runs=1 -rss_limit_mb=2048 "$f" > /dev/null 2>&1 || true
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}
: > "$OUT/empty-input"

printf '%-22s %-6s %3s %6s %12s %9s %7s %8s %5s %12s %8s\n' harness class w secs executions exec/s crashes timeouts slow slowest \
  target
failed=0
unmet=0
for i in "${!NAMES[@]}"; do
  h=${NAMES[$i]}
  w=${WORKERS[$i]}
  work="$OUT/$h"
  if [ "$MODE" = fork ]; then
    # The last fork-mode status line: "#N: cov: ... oom/timeout/crash: a/b/c time: ...".
    last=$(grep -E '^#[0-9]+: cov:' "$work/log" | tail -1 || true)
    runs=$(sed -E 's/^#([0-9]+):.*/\1/' <<< "$last")
    [ -n "$runs" ] || runs=0
    otc=$(grep -oE 'oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+' <<< "$last" | grep -oE '[0-9]+/[0-9]+/[0-9]+' || echo 0/0/0)
    ooms=${otc%%/*}
    rest=${otc#*/}
    timeouts=${rest%%/*}
    crashes=${rest#*/}
  else
    # Each worker's final stats (printed on a crash too).
    runs=0 ooms=0 timeouts=0 crashes=0
    for l in "$work"/logs/fuzz-*.log; do
      [ -f "$l" ] || continue
      n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$l" | tail -1 | grep -o '[0-9]*$' || true)
      runs=$((runs + ${n:-0}))
      if grep -q 'ERROR: libFuzzer: timeout' "$l"; then
        timeouts=$((timeouts + 1))
      elif grep -q 'ERROR: libFuzzer: out-of-memory' "$l"; then
        ooms=$((ooms + 1))
      elif grep -qE 'ERROR: |runtime error:|property failed' "$l"; then
        crashes=$((crashes + 1))
      fi
    done
  fi
  arts=$(find "$work/artifacts" -type f | wc -l)
  slow_files=$(find "$work/artifacts" -type f \( -name 'slow-unit-*' -o -name 'timeout-*' \) | sort)
  nslow=$(find "$work/artifacts" -type f -name 'slow-unit-*' | wc -l)
  slowest="<1 s"
  max=0
  base_ms=0
  [ -n "$slow_files" ] && base_ms=$(replay_ms "$h" "$OUT/empty-input")
  for f in $slow_files; do
    ms=$(($(replay_ms "$h" "$f") - base_ms))
    if [ "$ms" -gt "$max" ]; then max=$ms; slowest="${ms} ms"; fi
  done
  secs=$(cat "$work/seconds" 2> /dev/null || echo "$SECS")
  eps=$((runs / (secs > 0 ? secs : 1)))
  cls=parser
  case $h in fuzz_copy_* | fuzz_clear) cls=copy ;; esac
  tgt=$(target_of "$h")
  met=met
  [ "$runs" -ge "$tgt" ] || { met="NOT met"; unmet=$((unmet + 1)); }
  bad=0
  [ "$crashes" -eq 0 ] && [ "$timeouts" -eq 0 ] && [ "$ooms" -eq 0 ] || bad=1
  [ "$(cat "$work/rc" 2> /dev/null || echo 1)" = 0 ] || bad=1
  [ $bad -eq 0 ] || failed=1
  printf '%-22s %-6s %3s %6s %12s %9s %7s %8s %5s %12s %8s\n' "$h" "$cls" "$w" "$secs" "$runs" "$eps" "$((crashes + ooms))" \
    "$timeouts" "$nslow" "$slowest" "$met"
  if [ $bad -ne 0 ]; then
    echo "    log: $work/log; saved inputs ($arts): $work/artifacts/"
    cat "$work/log" "$work"/logs/fuzz-*.log 2> /dev/null | grep -E 'ERROR:|runtime error:|property failed' | sort | uniq -c |
      head -n 10 | sed 's/^/    /'
  fi
done
echo "run_long: wall ${wall} s; $([ $unmet -eq 0 ] && echo "every target met" || echo "$unmet target(s) NOT met");" \
  "$([ $failed -eq 0 ] && echo "no crash, timeout or OOM" || echo "FAILURES above")"
exit $failed
