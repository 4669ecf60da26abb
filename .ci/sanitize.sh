#!/usr/bin/env bash
# Sanitizer stage (docs/RELIABILITY.md): a clang build with AddressSanitizer
# and UndefinedBehaviorSanitizer of the library (SIMD kernels and the Vulkan
# path included), the tests, the CLI and the Python module, then the whole
# suite through ctest: C++ tests, CLI end-to-end tests, GPU tests (lavapipe in
# CI) and the pytest suite (python_tests preloads the ASan runtime into
# /usr/bin/python3; see python/CMakeLists.txt).
#   SWZ_ASAN_BUILD_DIR  build directory (default: build-asan; rebuilt from scratch)
#   SWZ_ASAN_KEEP=1     reuse an existing build directory
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${SWZ_ASAN_BUILD_DIR:-build-asan}
JOBS=$(nproc 2>/dev/null || echo 2)
CC_BIN=$(command -v clang-14 || command -v clang)
CXX_BIN=$(command -v clang++-14 || command -v clang++)
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
start=$SECONDS

if [ "${SWZ_ASAN_KEEP:-0}" != 1 ] || [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  rm -rf "$BUILD_DIR"
  # -O1: sanitized code at -O0 is several times slower to run, and -O2 slower to
  # build on two cores. Benchmarks are not built here (they run in the Release job).
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_COMPILER="$CC_BIN" -DCMAKE_CXX_COMPILER="$CXX_BIN" \
    -DCMAKE_C_FLAGS="$SAN" -DCMAKE_CXX_FLAGS="$SAN" \
    -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
    -DCMAKE_EXE_LINKER_FLAGS="$SAN" -DCMAKE_SHARED_LINKER_FLAGS="$SAN" \
    -DSWZ_BENCH=OFF -DSWZ_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3
fi
echo "==> sanitize: build ($BUILD_DIR, ASan + UBSan, -O1)"
cmake --build "$BUILD_DIR" -j "$JOBS"
build_s=$((SECONDS - start))

# Any sanitizer report fails the test that made it. Leak checking stays on for
# everything that does not load a Vulkan driver; lavapipe's LLVM (the GPU
# tests, the CLI's --device gpu checks) and the Python interpreter report
# leaks of their own, so those run with detect_leaks=0 (python_tests sets it
# itself, see python/CMakeLists.txt).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Half the random iterations (tests/support/test_scale.hpp): every path still
# runs under the sanitizers; the Release suite runs them all. swz_test_simd and
# IdentifyAccuracy.FullTable take most of this stage's time at full scale.
export SWZ_TEST_SCALE=${SWZ_TEST_SCALE:-0.5}
ASAN_BASE=${ASAN_OPTIONS:-strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
echo "==> sanitize: whole suite under ASan + UBSan (ctest), leak checks on"
ASAN_OPTIONS="$ASAN_BASE" ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" --timeout 900 -LE 'gpu|cli'
echo "==> sanitize: tests that load the Vulkan driver (lavapipe in CI), detect_leaks=0"
ASAN_OPTIONS="$ASAN_BASE:detect_leaks=0" ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" --timeout 900 -L 'gpu|cli'
echo "==> sanitize: passed (build ${build_s} s, tests $((SECONDS - start - build_s)) s)"
