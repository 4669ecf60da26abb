#!/usr/bin/env bash
# ARM64 stage: cross-build swz for aarch64 and test it under qemu-user.
#   .ci/arm64.sh [BUILD_DIR]        (default build-arm64)
# 1. Installs g++-aarch64-linux-gnu, qemu-user and the arm64 multiarch -dev
#    packages (dpkg --add-architecture arm64); the host's amd64 packages stay.
# 2. Builds the library, bin/swz and the tests that step 3 runs (not
#    swz_test_threads, which only .ci/tsan.sh uses) with
#    cmake/aarch64-linux-gnu.cmake (GPU, Python and benchmarks off), through
#    ccache when it is installed.
# 3. Runs the tests under qemu-aarch64 (QEMU_CPU; SWZ_TEST_SCALE scales the
#    random iteration counts, default 0.1 here):
#      cortex-a72 (NEON only)            the whole suite but cli_identify,
#                                        cli_commands and IdentifyAccuracy.FullTable
#      max, SVE vector length 512 bits   swz_test_simd: every kernel on SVE2, SVE
#      max, 128, 256 and 2048 bits       and NEON; every Highway target
#                                        (SVE2_128, SVE_256, long vectors)
#    and checks which Highway targets swz_test_simd ran on each CPU.
# 4. Compares the aarch64 swz command's output bytes with the x86-64 build's
#    for every layout family (tests/cli/cli_cross_compare.sh). The x86-64
#    build is SWZ_X86_BUILD_DIR (default: build); its swz is built if missing.
# ARM speed is not measured here (emulation says nothing about it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${1:-build-arm64}
X86_DIR=${SWZ_X86_BUILD_DIR:-build}
JOBS=$(nproc 2>/dev/null || echo 2)
export SWZ_TEST_SCALE=${SWZ_TEST_SCALE:-0.1}
# This build has no GPU path (SWZ_GPU=OFF), so .ci/run's SWZ_REQUIRE_VULKAN=1,
# which turns "no Vulkan" into a failure for the x86-64 build, does not apply.
unset SWZ_REQUIRE_VULKAN
stage_start=$SECONDS
# Each step line shows the wall seconds so far and the CPU seconds (user +
# system) of the finished child processes so far: on a loaded machine the CPU
# seconds, not the wall time, say how long a dedicated runner would take.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($16 + $17) / hz }' "/proc/$$/stat"; }
step() { echo "==> arm64 [$((SECONDS - stage_start)) s, $(cpu_s) s CPU] $*"; }

# --- 1. packages ---------------------------------------------------------------
# Multi-Arch: same packages must have one version for amd64 and arm64: when the
# arm64 one is newer (a security update), apt upgrades the amd64 twin with it.
PACKAGES=(
  g++-aarch64-linux-gnu qemu-user binutils-aarch64-linux-gnu
  libhwy-dev:arm64 libgtest-dev:arm64 libxsimd-dev:arm64 libstb-dev:arm64
  libpng-dev:arm64 libjpeg62-turbo-dev:arm64
  # swz view's HTTP server (a compiled library; its .pc is read through PKG_CONFIG_LIBDIR)
  libcpp-httplib-dev:arm64
  # Not libastcenc-dev:arm64: this build decodes no ASTC, and its tests check
  # that ASTC formats are refused naming libastcenc (DecodeAstc.SupportFollowsTheBuild).
  # header-only, shared by both architectures
  nlohmann-json3-dev libcli11-dev xtl-dev
  cmake make ccache
)
step "Debian packages"
if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
add_arch=0
dpkg --print-foreign-architectures | grep -qx arm64 || add_arch=1
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ $add_arch -eq 1 ] || [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  [ $add_arch -eq 1 ] && "${SUDO[@]}" dpkg --add-architecture arm64
  "${SUDO[@]}" apt-get update
  "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "all ${#PACKAGES[@]} packages are installed"
fi

# --- 2. cross build ------------------------------------------------------------
step "cross build in $BUILD_DIR"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
mkdir -p "$BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake" -DCMAKE_BUILD_TYPE=Release \
  -DSWZ_GPU=OFF -DSWZ_PYTHON=OFF -DSWZ_BENCH=OFF "${launcher[@]}" >"$BUILD_DIR/configure.log" 2>&1 ||
  { cat "$BUILD_DIR/configure.log"; exit 1; }
grep -E "^-- swz:" "$BUILD_DIR/configure.log" || true
# Only what step 3 runs: ctest needs every target that registers a test.
cmake --build "$BUILD_DIR" -j "$JOBS" --target swz_cli swz_tests swz_test_simd swz_test_capi swz_test_capi_copy \
  swz_capi_readme_example swz_test_capi_clear swz_cli_unit_tests swz_conformance_tests
aarch64-linux-gnu-readelf -h "$BUILD_DIR/bin/swz" | grep -q "Machine: *AArch64" ||
  { echo "arm64: $BUILD_DIR/bin/swz is not an AArch64 executable" >&2; exit 1; }

# --- 3. tests under qemu -------------------------------------------------------
# swz_test_simd runs in the background, two or three at a time (one process
# each; the machine has two cores), one log per CPU.
declare -A SIMD_PID
# simd_start CPU SCALE FILTER: swz_test_simd with QEMU_CPU=CPU.
simd_start() {
  echo "    swz_test_simd: QEMU_CPU=$1 SWZ_TEST_SCALE=$2 --gtest_filter=$3"
  QEMU_CPU=$1 SWZ_TEST_SCALE=$2 qemu-aarch64 "$BUILD_DIR/tests/swz_test_simd" --gtest_filter="$3" \
    > "$BUILD_DIR/simd.$1.log" 2>&1 &
  SIMD_PID[$1]=$!
}
# simd_check CPU WANT...: it passed, and the Highway targets it ran (its line
# "Highway targets run: ...") are exactly WANT.
simd_check() {
  local cpu=$1 log="$BUILD_DIR/simd.$1.log"
  shift
  if ! wait "${SIMD_PID[$cpu]}"; then
    cat "$log"
    echo "arm64: swz_test_simd failed under QEMU_CPU=$cpu" >&2
    exit 1
  fi
  echo "    QEMU_CPU=$cpu: $(grep -E '^\[  PASSED' "$log") $(grep -E '^Highway targets run:' "$log")"
  local ran want="$*"
  ran=$(sed -n 's/^Highway targets run: \([^(]*[^ (]\) (.*/\1/p' "$log")
  if [ "$ran" != "$want" ]; then
    echo "arm64: under QEMU_CPU=$cpu expected the Highway targets '$want', ran '$ran'" >&2
    exit 1
  fi
}

CPU_NEON=cortex-a72
CPU_SVE=max,sve-default-vector-length=64  # 512-bit SVE, SVE2
step "swz_test_simd, NEON only and SVE/SVE2 at 512 bits, SWZ_TEST_SCALE=$SWZ_TEST_SCALE"
simd_start "$CPU_NEON" "$SWZ_TEST_SCALE" '*'
simd_start "$CPU_SVE" "$SWZ_TEST_SCALE" '*'
simd_check "$CPU_NEON" NEON
simd_check "$CPU_SVE" SVE2 SVE NEON

# Left out (CPU seconds under qemu, cortex-a72):
# - cli_identify (minutes): it scans every layout family with the identify
#   code that the IdentifyAccuracy and Infer tests of swz_tests run here.
# - cli_commands (57 s user + 2 s sys, the costliest of the command scripts:
#   one emulated process per listed layout and per --help): listing, help
#   text and exit statuses, none of it architecture-dependent; its library
#   code runs here through swz_tests.
# cli_dumps (14 s), cli_batch (15 s), cli_hw (14 s) and cli_retile (9 s) run.
# - IdentifyAccuracy.FullTable (80 s under qemu): the same identify code as
#   IdentifyAccuracy.SubsetRanksTheTruthFirst, which runs, over every layout.
# The library's architecture-dependent code is its kernels: swz_test_simd
# checks every one of them against the scalar tiler on each emulated CPU, so
# the rest of the suite runs once, on the NEON CPU. A test that hangs stops
# at --timeout and fails the stage. The browser test of swz view is left to
# the x86-64 stages: the page and its server hold no architecture-dependent
# code, and a browser waiting on an emulated server only measures qemu.
step "ctest, QEMU_CPU=$CPU_NEON: every test but swz_test_simd, cli_identify, cli_commands, cli_view_browser and IdentifyAccuracy.FullTable"
QEMU_CPU=$CPU_NEON ctest --test-dir "$BUILD_DIR" -j "$JOBS" --output-on-failure --timeout 600 \
  -E '^(swz_test_simd|cli_identify|cli_commands|cli_view_browser|IdentifyAccuracy\.FullTable)$'

# Other SVE vector lengths: the targets only they enable (SVE2_128 at 128
# bits, SVE_256 at 256 bits) and vectors longer than a 64-byte line (2048
# bits), on every Highway target and the hardware families.
SIMD_SCALE=$(awk -v s="$SWZ_TEST_SCALE" 'BEGIN { print s / 2 }')
step "swz_test_simd at SVE vector lengths 128, 256 and 2048 bits, SWZ_TEST_SCALE=$SIMD_SCALE"
for vl in 16 32 256; do
  simd_start "max,sve-default-vector-length=$vl" "$SIMD_SCALE" 'SimdRegion.EveryHighwayTarget:SimdApi.HardwareFamiliesOnUserBuffers'
done
simd_check max,sve-default-vector-length=16 SVE2_128 SVE2 SVE NEON
simd_check max,sve-default-vector-length=32 SVE_256 SVE2 SVE NEON
simd_check max,sve-default-vector-length=256 SVE2 SVE NEON

# --- 4. the same bytes as the x86-64 command -----------------------------------
if [ ! -x "$X86_DIR/bin/swz" ]; then
  step "x86-64 swz in $X86_DIR"
  cmake -S . -B "$X86_DIR" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
  cmake --build "$X86_DIR" -j "$JOBS" --target swz_cli
fi
step "arm64 swz (qemu, cortex-a72) against $X86_DIR/bin/swz, every layout family"
QEMU_CPU=cortex-a72 bash tests/cli/cli_cross_compare.sh "$X86_DIR/bin/swz" "$BUILD_DIR/bin/swz-emulated" . "$JOBS"

step "passed in $((SECONDS - stage_start)) s"
