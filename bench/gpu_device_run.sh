#!/bin/bash
# One full measurement run on a machine with an NVIDIA GPU: binaries built on
# a Debian 12 build machine and carried
# (build/swz_*), the Vulkan loader from Debian's libvulkan1 .deb (.gl/; the
# NVIDIA ICD there also needs libglvnd0 libegl1 libgl1 libglx0 libopengl0
# libgles2 beside it, else vkCreateInstance fails with INCOMPATIBLE_DRIVER) and
# libhwy (.devlib/). Writes logs to $OUT (or ./gpu-out). Steps:
#   crash  - the static-Context exit crash with the exit handler turned off
#            (SWZ_GPU_EXIT_TEARDOWN=0) under cuda-gdb for a backtrace
#   ctest  - the GPU tests under ctest, SWZ_REQUIRE_VULKAN=1
#   bench  - swz_bench_gpu --dispatch --verify, --host, --wc
#   host   - the host path alone: every HostPath at 64 MiB,
#            256 MiB and 1 GiB with ring chunks of 4/16 MiB, 8/16 copy threads,
#            memcpy or non-temporal host copies, next to the bus and the CPU
#            path (host.md, host.txt)
#   bus    - swz_bench_bus: the bus one way and both ways at once (copy
#            engines, shaders, the banded pipeline), with Vulkan allocations
#            and with imported heap blocks, 64 MiB to 1 GiB (bus.txt)
# Usage: bench/gpu_device_run.sh [crash] [ctest] [bench] [host] [bus] [cli]   (default: all but host and bus)
set -u
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$PWD/.devlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
B=$PWD/build
# The test binaries are in build/tests (the tree mirrors src); a build made
# with an older tree has them in build/.
T=$B/tests
[ -x "$T/swz_gpu_tests" ] || T=$B
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(crash ctest bench cli)
has() { local s; for s in "${steps[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv 2>&1
  lscpu | grep -E 'Model name|^CPU\(s\)|L3|NUMA node\(s\)'
  uname -r
} 2>&1 | tee "$OUT/machine.txt"

if has crash; then
  echo "== static Context at exit, exit handler OFF (SWZ_GPU_EXIT_TEARDOWN=0) =="
  SWZ_GPU_EXIT_TEARDOWN=0 "$T/swz_gpu_static_exit"; echo "exit status: $?"
  if command -v cuda-gdb >/dev/null; then
    SWZ_GPU_EXIT_TEARDOWN=0 timeout 180 cuda-gdb -q -batch -ex run -ex bt -ex 'info threads' \
      --args "$T/swz_gpu_static_exit" 2>&1 | grep -v '^\[New Thread\|^\[Thread .* exited' | tail -60
  fi
  echo "== same, exit handler ON (default) =="
  "$T/swz_gpu_static_exit"; echo "exit status: $?"
fi 2>&1 | tee "$OUT/crash.txt"

if has ctest; then
  mkdir -p /tmp/ct
  cat > /tmp/ct/CTestTestfile.cmake <<CT
add_test(swz_gpu_tests "$T/swz_gpu_tests")
set_tests_properties(swz_gpu_tests PROPERTIES TIMEOUT 600 ENVIRONMENT "SWZ_REQUIRE_VULKAN=1")
add_test(swz_gpu_static_exit "$T/swz_gpu_static_exit")
set_tests_properties(swz_gpu_static_exit PROPERTIES TIMEOUT 120 ENVIRONMENT "SWZ_REQUIRE_VULKAN=1")
CT
  (cd /tmp/ct && ctest --output-on-failure; echo "ctest exit status: $?")
fi 2>&1 | tee "$OUT/ctest.txt"

if has bench; then
  "$B/swz_bench_gpu" --dispatch --verify --reps 30 --md "$OUT/dispatch.md" > "$OUT/dispatch.txt" 2>&1; echo "dispatch exit $?"
  tail -45 "$OUT/dispatch.txt"
  "$B/swz_bench_gpu" --host --reps 10 --md "$OUT/host.md" > "$OUT/host.txt" 2>&1; echo "host exit $?"
  tail -8 "$OUT/host.txt"
  "$B/swz_bench_gpu" --wc --reps 10 --md "$OUT/wc.md" > "$OUT/wc.txt" 2>&1; echo "wc exit $?"
  tail -22 "$OUT/wc.txt"
fi

if has host; then
  "$B/swz_bench_gpu" --host --reps 10 --host-sizes 64,256,1024 --ring-chunk-mib 4,16 --ring-threads 8,16 --ring-stream 0,1 \
    --md "$OUT/host.md" > "$OUT/host.txt" 2>&1; echo "host exit $?"
  cat "$OUT/host.md"
fi

if has bus; then
  for m in 64 256 1024; do for i in 0 1; do "$B/swz_bench_bus" --mib $m --reps 10 --import $i; done; done \
    > "$OUT/bus.txt" 2>&1; echo "bus exit $?"
  cat "$OUT/bus.txt"
fi

if has cli && [ -x "$B/bin/swz" ]; then
  {
    head -c $((256 << 20)) /dev/urandom > /tmp/in.bin
    for dev in cpu gpu; do
      TIMEFORMAT="$dev: %R s"; time "$B/bin/swz" swizzle --layout std64k --format R8G8B8A8_UNORM --size 8192x8192 \
        --device $dev /tmp/in.bin /tmp/out-$dev.bin
    done
    cmp /tmp/out-cpu.bin /tmp/out-gpu.bin && echo "cli gpu == cpu"
  } 2>&1 | tee "$OUT/cli.txt"
fi
