#!/usr/bin/env bash
# Installs the Debian packages swz needs to build, test and run (.ci/install-deps.sh).
# Works as root on a fresh Debian 12 (no sudo needed) or as a user with sudo.
# Does nothing when every package is already installed.
set -euo pipefail

PACKAGES=(
  # build
  cmake make g++ pkg-config ccache
  # library, CLI, tests, benchmarks
  libhwy-dev libxsimd-dev xtl-dev libgtest-dev libgmock-dev libbenchmark-dev
  # bench/bench_decode.cpp: libsquish, the BC1-BC5 decoder baseline
  libsquish-dev
  libstb-dev libcli11-dev nlohmann-json3-dev libpng-dev libjpeg62-turbo-dev
  # swz view's HTTP server; its browser test (tests/cli/view_browser_test.py): headless chromium over DevTools
  libcpp-httplib-dev chromium python3-websocket
  # ASTC decoding (optional: without it swz refuses ASTC formats)
  libastcenc-dev
  # bench/cli_io.sh (peak RSS through /usr/bin/time -v); tests/cli/cli_io_test.sh (counts locate's writes)
  time strace
  # Python module
  pybind11-dev python3-dev python3-numpy python3-pytest python3-pil
  # swz.plot_pattern and its test (python/tests/test_order.py)
  python3-matplotlib
  # pip install . (.ci/pip_test.sh): venv, setuptools backend, wheel
  python3-venv python3-setuptools python3-wheel
  # GPU path (lavapipe in CI) and the shader compiler
  libvulkan-dev mesa-vulkan-drivers glslc
  # sanitizer and fuzz stages
  clang libclang-rt-14-dev libfuzzer-14-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "==> install-deps: all ${#PACKAGES[@]} Debian packages are already installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: not root and no sudo; install these packages first: ${missing[*]}" >&2
  exit 1
fi

echo "==> install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update
"${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
