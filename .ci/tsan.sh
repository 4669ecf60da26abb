#!/usr/bin/env bash
# ThreadSanitizer stage (docs/RELIABILITY.md): builds the library and the
# multi-threaded test (tests/core/test_core_threads.cpp: 8 threads sharing
# Layouts for copies with threads = 1..4 inside, element_offset and locate)
# with clang -fsanitize=thread, and runs that test. Fails on any data race.
#   SWZ_TSAN_BUILD_DIR  build directory (default: build-tsan)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${SWZ_TSAN_BUILD_DIR:-build-tsan}
CC_BIN=$(command -v clang-14 || command -v clang)
CXX_BIN=$(command -v clang++-14 || command -v clang++)
start=$SECONDS
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$CC_BIN" -DCMAKE_CXX_COMPILER="$CXX_BIN" \
    -DCMAKE_C_FLAGS="-fsanitize=thread" -DCMAKE_CXX_FLAGS="-fsanitize=thread" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" \
    -DSWZ_TESTS=ON -DSWZ_CLI=OFF -DSWZ_GPU=OFF -DSWZ_BENCH=OFF -DSWZ_PYTHON=OFF
fi
echo "==> tsan: build ($BUILD_DIR)"
cmake --build "$BUILD_DIR" -j "$(nproc 2>/dev/null || echo 2)" --target swz_test_threads
build_s=$((SECONDS - start))
echo "==> tsan: run"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" "$BUILD_DIR/tests/swz_test_threads"
echo "==> tsan: passed (build ${build_s} s, run $((SECONDS - start - build_s)) s)"
