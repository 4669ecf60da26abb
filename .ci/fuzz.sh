#!/usr/bin/env bash
# Fuzz stage (docs/RELIABILITY.md): builds the libFuzzer harnesses in fuzz/
# with clang (-fsanitize=fuzzer,address,undefined) and runs each one for a
# bounded time, starting from its seed corpus (fuzz/corpus/<harness>) and the
# saved inputs of past bugs (fuzz/regressions/<harness>). Fails on any crash,
# sanitizer report, property failure, leak, timeout or out-of-memory.
#   SWZ_FUZZ_BUILD_DIR  build directory (default: build-fuzz)
#   SWZ_FUZZ_SECONDS    seconds per harness (default: 60)
#   SWZ_FUZZ_PARALLEL   harnesses run at once (default: the number of cores, at most 4)
#   SWZ_FUZZ_ONLY       run only these harnesses (space-separated names)
#   SWZ_FUZZ_BUILD_ONLY=1  build the harnesses, run none (fuzz/run_long.sh)
#   SWZ_FUZZ_OUT        where new corpus entries and crash inputs go (default: a temp dir)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${SWZ_FUZZ_BUILD_DIR:-build-fuzz}
SECS=${SWZ_FUZZ_SECONDS:-60}
JOBS=$(nproc 2>/dev/null || echo 2)
PAR=${SWZ_FUZZ_PARALLEL:-$(( JOBS < 4 ? JOBS : 4 ))}
OUT=${SWZ_FUZZ_OUT:-$(mktemp -d /tmp/swz-fuzz.XXXXXX)}
CC_BIN=$(command -v clang-14 || command -v clang)
CXX_BIN=$(command -v clang++-14 || command -v clang++)
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
HARNESSES=(fuzz_pattern_text fuzz_pattern_json fuzz_pattern_ddi fuzz_resource_layout fuzz_dds
           fuzz_copy_subresource fuzz_copy_regions fuzz_copy_tiles fuzz_copy_footprint fuzz_image_input fuzz_cli_args fuzz_clear fuzz_decode
           fuzz_view_request)
[ -n "${SWZ_FUZZ_ONLY:-}" ] && read -r -a HARNESSES <<< "$SWZ_FUZZ_ONLY"
start=$SECONDS

if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  # Only the library (all CPU kernels: scalar, Highway, xsimd) and the harnesses.
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CC_BIN" -DCMAKE_CXX_COMPILER="$CXX_BIN" \
    -DCMAKE_C_FLAGS="$SAN" -DCMAKE_CXX_FLAGS="$SAN -g1" -DCMAKE_CXX_FLAGS_RELEASE="-O1" \
    -DSWZ_FUZZ=ON -DSWZ_TESTS=OFF -DSWZ_CLI=OFF -DSWZ_GPU=OFF -DSWZ_BENCH=OFF -DSWZ_PYTHON=OFF
fi
echo "==> fuzz: build ($BUILD_DIR)"
cmake --build "$BUILD_DIR" -j "$JOBS" --target swz_fuzz
build_s=$((SECONDS - start))
if [ -n "${SWZ_FUZZ_BUILD_ONLY:-}" ]; then echo "==> fuzz: built (${build_s} s)"; exit 0; fi

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
run_one() {
  local h=$1 work="$OUT/$1"
  mkdir -p "$work/corpus" "$work/artifacts"
  local dirs=("$work/corpus" "fuzz/corpus/$h")
  [ -d "fuzz/regressions/$h" ] && dirs+=("fuzz/regressions/$h")
  # New inputs go to the first directory (a scratch copy); the seeds stay as they are.
  "$BUILD_DIR/fuzz/$h" -max_total_time="$SECS" -timeout=25 -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dirs[@]}" > "$work/log" 2>&1
}

echo "==> fuzz: ${#HARNESSES[@]} harnesses, ${SECS} s each, ${PAR} at a time (work in $OUT)"
failed=()
pids=()
names=()
flush() {
  local i
  for i in "${!pids[@]}"; do
    local h=${names[$i]}
    if wait "${pids[$i]}"; then status=ok; else status=FAILED; failed+=("$h"); fi
    local runs cov
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$OUT/$h/log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$OUT/$h/log" | tail -1 | grep -o '[0-9]*' || echo "?")
    printf '    %-24s %-6s %10s runs  cov %s\n' "$h" "$status" "$runs" "$cov"
  done
  pids=()
  names=()
}
for h in "${HARNESSES[@]}"; do
  run_one "$h" &
  pids+=($!)
  names+=("$h")
  [ ${#pids[@]} -ge "$PAR" ] && flush
done
flush

if [ ${#failed[@]} -ne 0 ]; then
  for h in "${failed[@]}"; do
    echo "---- $h: last lines of the log ($OUT/$h/log)"
    tail -n 60 "$OUT/$h/log"
    for a in "$OUT/$h"/artifacts/*; do
      [ -f "$a" ] || continue
      echo "---- crash input $a (base64; reproduce: $BUILD_DIR/fuzz/$h FILE, then save it under fuzz/regressions/$h/)"
      base64 -w 0 "$a" | head -c 20000
      echo
    done
  done
  echo "==> fuzz: FAILED: ${failed[*]}"
  exit 1
fi
echo "==> fuzz: passed (build ${build_s} s, fuzzing $((SECONDS - start - build_s)) s)"
