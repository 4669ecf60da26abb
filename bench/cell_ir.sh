#!/bin/sh
# Instructions per linear byte of one matrix cell, from callgrind (exact and
# unaffected by other load; valgrind runs the AVX2 kernels, it has no AVX-512).
#   bench/cell_ir.sh BINARY MODE LAYOUT FORMAT SIZE DIRECTION BUFFERS [REPS]
# BINARY is swz_bench_cell; MODE kernel | memcpy | floor (see bench_cell.cpp).
# Needs valgrind (Debian package valgrind; not in .ci/install-deps.sh, CI does not run this).
# Counts only inside the timed function: Ir / ((REPS + 1) x bytes).
# Compare a kernel with its floor (0.25), not with memcpy: glibc's memcpy uses
# rep movsb, which valgrind counts as one instruction per byte.
set -eu
bin=$1
mode=$2
dir=$6
reps=${8:-2}
case $mode in
  kernel) if [ "$dir" = swizzle ]; then fn='swz::write_to_subresource*'; else fn='swz::read_from_subresource*'; fi ;;
  memcpy) fn='*cell_memcpy*' ;;
  *) fn='*floor_gather*' ;;
esac
bytes=$("$bin" "$mode" "$3" "$4" "$5" "$6" "$7" 0 2>/dev/null)
ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no "--toggle-collect=$fn" \
  "$bin" "$mode" "$3" "$4" "$5" "$6" "$7" "$reps" 2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
python3 -c "print(f'{$ir / ($reps + 1) / $bytes:.4f}')"
