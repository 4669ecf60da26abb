#!/usr/bin/env bash
# Builds swz if needed and runs the whole test suite.
#   SWZ_BUILD_DIR   build directory (default: build)
#   SWZ_CMAKE_ARGS  extra cmake options for a new build directory
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${SWZ_BUILD_DIR:-build}
JOBS=$(nproc 2>/dev/null || echo 2)
# ccache, when it is installed (.ci/install-deps.sh installs it), makes a rebuild
# after a first build, or in another build directory, take seconds.
LAUNCHER=()
if command -v ccache >/dev/null 2>&1; then
  LAUNCHER=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] || [ ! -f "$BUILD_DIR/CTestTestfile.cmake" ]; then
  echo "==> configure (Release) in $BUILD_DIR"
  # shellcheck disable=SC2086  # SWZ_CMAKE_ARGS: extra options, e.g. "-DSWZ_GPU=OFF"
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}" ${SWZ_CMAKE_ARGS:-}
fi
echo "==> build"
cmake --build "$BUILD_DIR" -j "$JOBS"

echo "==> C++ tests (ctest)"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" --timeout 600

# The pytest suite (python/tests) runs inside ctest as the test python_tests.

echo "==> all tests passed"
