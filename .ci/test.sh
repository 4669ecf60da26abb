#!/usr/bin/env bash
# Builds swz if needed and runs the whole test suite.
#   SWZ_BUILD_DIR  build directory (default: build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${SWZ_BUILD_DIR:-build}
JOBS=$(nproc 2>/dev/null || echo 2)

if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  echo "==> configure (Release) in $BUILD_DIR"
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
fi
echo "==> build"
cmake --build "$BUILD_DIR" -j "$JOBS"

echo "==> C++ tests (ctest)"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"

# ---- Python tests (pytest) ---------------------------------------------------
# Placeholder: when the Python module lands, run it here, e.g.
#   /usr/bin/python3 -m pytest -q python/tests
# ------------------------------------------------------------------------------

echo "==> all tests passed"
