# CMake toolchain file: cross-build swz for 64-bit Arm Linux (aarch64) on an
# x86-64 Debian host, run the results under qemu-user (.ci/arm64.sh).
#
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DSWZ_GPU=OFF -DSWZ_PYTHON=OFF -DSWZ_BENCH=OFF
#
# Compilers: Debian's g++-aarch64-linux-gnu. Libraries: Debian multiarch
# packages (libhwy-dev:arm64, libgtest-dev:arm64, ...) in
# /usr/lib/aarch64-linux-gnu, headers in /usr/include; the compiler reports the
# library architecture, so find_package looks only in the aarch64 folders.
#
# Tests (ctest, gtest_discover_tests) and try_run go through
# CMAKE_CROSSCOMPILING_EMULATOR, qemu-aarch64. Pick the emulated CPU at run
# time with QEMU_CPU (qemu-user's environment form of -cpu), e.g.
#   QEMU_CPU=cortex-a72 ctest ...                          (NEON only)
#   QEMU_CPU=max,sve-default-vector-length=32 ctest ...    (SVE2, 256-bit)
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(SWZ_ARM64_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${SWZ_ARM64_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${SWZ_ARM64_TRIPLE}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${SWZ_ARM64_TRIPLE})

# pkg-config (cpp-httplib for swz view) reads the aarch64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${SWZ_ARM64_TRIPLE}/pkgconfig:/usr/share/pkgconfig")

# Programs (glslc, bash, qemu) come from the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

find_program(SWZ_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(SWZ_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${SWZ_QEMU_AARCH64}")
endif()
