#!/usr/bin/env bash
# The main job, from a fresh Debian machine:
#   1. install the Debian packages (.ci/install-deps.sh; skipped with SWZ_SKIP_DEPS=1),
#   2. configure and build swz (Release) in build/ (or $SWZ_BUILD_DIR),
#   3. swizzle the bundled photograph into the D3D12 64KB standard swizzle,
#   4. deswizzle it back to a PNG,
#   5. check that the decoded RGBA8 pixels of the original equal the round trip.
# Environment: SWZ_BUILD_DIR (default build), SWZ_SKIP_DEPS=1, SWZ_CMAKE_ARGS (extra cmake options).
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
PHOTO=examples/coffee.png   # 600x400 RGB photograph, CC0 (examples/CREDITS.md)
SIZE=600x400

if [ "${SWZ_SKIP_DEPS:-0}" != 1 ]; then
  echo "==> Debian packages (.ci/install-deps.sh)"
  bash .ci/install-deps.sh
fi

echo "==> configure (Release) in $BUILD_DIR"
# shellcheck disable=SC2086  # SWZ_CMAKE_ARGS: extra options, e.g. "-DSWZ_GPU=OFF"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}" ${SWZ_CMAKE_ARGS:-}
echo "==> build the swz command"
cmake --build "$BUILD_DIR" --target swz_cli -j "$JOBS"
SWZ="$BUILD_DIR/bin/swz"

echo "==> swizzle $PHOTO into the 64KB standard swizzle"
"$SWZ" swizzle --layout std64k "$PHOTO" "$BUILD_DIR/photo.std64k.bin"

echo "==> where pixel (17, 3) lives in that layout (2100 = 0x834), and which pixel byte 0x834 holds"
echo "    offset of pixel (17, 3): $("$SWZ" offset --layout std64k --format R8G8B8A8_UNORM --size "$SIZE" 17 3)"
echo "    byte 0x834 holds: $("$SWZ" locate --layout std64k --format R8G8B8A8_UNORM --size "$SIZE" 0x834)"

echo "==> deswizzle it back to a PNG"
"$SWZ" deswizzle --layout std64k --format R8G8B8A8_UNORM --size "$SIZE" \
  "$BUILD_DIR/photo.std64k.bin" "$BUILD_DIR/photo.roundtrip.png"

echo "==> compare the decoded RGBA8 pixels"
"$SWZ" compare "$PHOTO" "$BUILD_DIR/photo.roundtrip.png"

echo "==> done: $BUILD_DIR/photo.std64k.bin (swizzled), $BUILD_DIR/photo.roundtrip.png (round trip)"
