#!/usr/bin/env python3
"""Benchmark of swz.offsets (the vectorised address map), single thread.

Usage: PYTHONPATH=<build>/python /usr/bin/python3 bench/bench_python_offsets.py [--reps 10] [--n 16777216] [--smoke]
         [--only locate] [--no-copies]

Cases (each: median of --reps runs, in millions of offsets (or locates) per second):
  random:    x, y: int64 arrays of n random element coordinates (gather-like access)
  uint32:    the same coordinates as uint32 arrays (read in place, as every integer type)
  grid:      x = arange(W) broadcast against y = arange(H)[:, None] (a whole mip, no index arrays)
  3d:        std64k 3D R16G16B16A16_FLOAT, x, y, z random
  pattern:   a random-ish pattern with XOR and postamble terms, x, y random
  numpy:     baseline: the same random x, y through numpy arithmetic y*pitch + x*4 (row-major formula)
  locate:    swz.locate of n random byte offsets (the inverse map), 2D, pattern, 3D, mips x arrays
             (std64k 4096^2 RGBA8 13 mips x 6 slices), a mipped 3D (256^3, 9 mips), a 256-slice array
             (256^2 RGBA8, 9 mips x 256 slices), the same array as AMD GFX9 SW_64KB_S lays it out (every
             slice of a mip in one frame at slice 0's offset), a sequential sweep of n bytes of the mips
             x arrays resource, and one scalar call on a 2048-slice array (the layout's cached Locator).
             Batches of 2^17 offsets or more run on several threads (one per 2^16 offsets, at most one
             per core); --n 65536 times one thread.
Then, for context, the copies from Python (GB/s of surface bytes, threads=1,
out= preallocated so nothing is allocated per call) next to numpy.copyto of
the same bytes, and the fixed cost of one call (a 16x16 subresource, out=).
The conversion of inputs to int64 and broadcasting is included (it is part of
the call); swz.offsets runs its loop in C++ with the GIL released, on one thread.
"""
import argparse
import statistics
import sys
import time

import numpy as np

import swz


CLOCK = time.perf_counter


def bench(fn, reps):
    fn()  # warm up (page faults of the output)
    ts = []
    for _ in range(reps):
        t0 = CLOCK()
        fn()
        ts.append(CLOCK() - t0)
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--n", type=int, default=1 << 24)
    ap.add_argument("--smoke", action="store_true", help="one short iteration (CI)")
    ap.add_argument("--only", default="", help="run only the cases whose name contains this text (e.g. locate)")
    ap.add_argument("--no-copies", action="store_true", help="skip the copy timings")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="wall: time.perf_counter (default); cpu: time.process_time, for a machine shared with other "
                         "jobs (it sums all threads, so it understates a threaded call)")
    a = ap.parse_args()
    global CLOCK
    CLOCK = time.process_time if a.clock == "cpu" else time.perf_counter
    if a.smoke:
        a.reps, a.n = 1, 1 << 12
    rng = np.random.default_rng(0)
    W = H = 4096
    L = swz.Layout.std64k("R8G8B8A8_UNORM", W, H)
    x = rng.integers(0, W, a.n, dtype=np.int64)
    y = rng.integers(0, H, a.n, dtype=np.int64)
    x32, y32 = x.astype(np.uint32), y.astype(np.uint32)
    L3 = swz.Layout.std64k("R16G16B16A16_FLOAT", 256, 256, 256)
    x3, y3, z3 = (rng.integers(0, 256, a.n, dtype=np.int64) for _ in range(3))
    P = swz.Layout.pattern("X0 X1 X2 X3 Y0 Y1 X4^Y5 Y2^X7 X5 Y3^X9 X6 Y4 post8=Y6^X10 post9=X8", "R8G8B8A8_UNORM", W, H)
    gw = min(W, int(np.sqrt(a.n)))
    gx, gy = np.arange(gw), np.arange(gw)[:, None]
    pitch = 4 * W
    boffs = rng.integers(0, L.size, a.n, dtype=np.int64)
    poffs = rng.integers(0, P.size, a.n, dtype=np.int64)
    offs3 = rng.integers(0, L3.size, a.n, dtype=np.int64)
    M = swz.Layout.std64k("R8G8B8A8_UNORM", 4096, 4096, mips=13, array=6)
    moffs = rng.integers(0, M.size, a.n, dtype=np.int64)
    A = swz.Layout.std64k("R8G8B8A8_UNORM", 1024, 1024, mips=11, array=2048)
    M3 = swz.Layout.std64k("R16G16B16A16_FLOAT", 256, 256, 256, mips=9)
    m3offs = rng.integers(0, M3.size, a.n, dtype=np.int64)
    S = swz.Layout.std64k("R8G8B8A8_UNORM", 256, 256, mips=9, array=256)
    soffs = rng.integers(0, S.size, a.n, dtype=np.int64)
    sweep = np.arange(a.n, dtype=np.int64) + int(rng.integers(0, M.size - a.n))
    AMD = swz.Layout.from_name("amd-gfx9-sw64k-s", "R8G8B8A8_UNORM", 256, 256, mips=9, array=256)
    aoffs = rng.integers(0, AMD.size, a.n, dtype=np.int64)
    cases = [
        ("random (std64k 2D, 32bpp)", lambda: swz.offsets(L, x, y), a.n),
        ("random, uint32 coordinates", lambda: swz.offsets(L, x32, y32), a.n),
        ("grid (broadcast arange)", lambda: swz.offsets(L, gx, gy), gw * gw),
        ("3d (std64k 3D, 64bpp)", lambda: swz.offsets(L3, x3, y3, z3), a.n),
        ("pattern with XOR/postamble", lambda: swz.offsets(P, x, y), a.n),
        ("numpy baseline y*pitch + x*4", lambda: y * pitch + x * 4, a.n),
        ("locate (std64k 2D, random bytes)", lambda: swz.locate(L, boffs), a.n),
        ("locate (pattern with postamble)", lambda: swz.locate(P, poffs), a.n),
        ("locate (3D, random bytes)", lambda: swz.locate(L3, offs3), a.n),
        ("locate (std64k, 13 mips x 6 slices)", lambda: swz.locate(M, moffs), a.n),
        ("locate (std64k 3D 256^3, 9 mips)", lambda: swz.locate(M3, m3offs), a.n),
        ("locate (256^2, 9 mips x 256 slices)", lambda: swz.locate(S, soffs), a.n),
        ("locate (AMD one frame, 9 mips x 256)", lambda: swz.locate(AMD, aoffs), a.n),
        ("locate (13 mips x 6, sequential)", lambda: swz.locate(M, sweep), a.n),
        ("locate (one offset, 22528 subresources)", lambda: swz.locate(A, 12345), 1),
    ]
    print(f"swz.offsets, n = {a.n}, median of {a.reps}, {a.clock} clock; backends {swz.backends()}; numpy {np.__version__}")
    for name, fn, n in cases:
        if a.only not in name:
            continue
        t = bench(fn, a.reps)
        if n == 1:
            print(f"  {name:38s} {t * 1e6:8.1f} us per call")
        else:
            print(f"  {name:38s} {n / t / 1e6:8.1f} M offsets/s  ({t * 1e3:.1f} ms)")
    if a.no_copies:
        return 0
    side = 256 if a.smoke else 4096
    C = swz.Layout.std64k("R8G8B8A8_UNORM", side, side)
    img = rng.integers(0, 256, (side, side, 4), dtype=np.uint8)
    res = np.zeros(C.size, np.uint8)
    lin = np.empty_like(img)
    nbytes = img.nbytes
    print(f"copies, std64k R8G8B8A8 {side}x{side} ({nbytes >> 20} MiB), threads=1, median of {a.reps}:")
    for name, fn in [("numpy.copyto (memcpy)", lambda: np.copyto(lin, img)),
                     ("swz.swizzle(out=)", lambda: swz.swizzle(img, C, out=res, threads=1)),
                     ("swz.deswizzle(out=)", lambda: swz.deswizzle(res, C, out=lin, threads=1))]:
        t = bench(fn, a.reps)
        print(f"  {name:32s} {nbytes / t / 1e9:8.2f} GB/s  ({t * 1e3:.1f} ms)")
    # The fixed cost of a call: a 16x16 RGBA8 subresource (1 KiB), out= preallocated; the best
    # of --reps batches of 20000 calls (the least disturbed by other jobs).
    T = swz.Layout.std64k("R8G8B8A8_UNORM", 16, 16)
    timg = np.zeros((16, 16, 4), np.uint8)
    tres = np.zeros(T.size, np.uint8)
    calls = 200 if a.smoke else 20000
    print(f"per-call cost, 16x16 R8G8B8A8, out= preallocated, best of {a.reps} x {calls} calls:")
    for name, fn in [("swz.swizzle(out=)", lambda: swz.swizzle(timg, T, out=tres)),
                     ("swz.deswizzle(out=)", lambda: swz.deswizzle(tres, T, out=timg))]:
        best = float("inf")
        for _ in range(a.reps):
            t0 = CLOCK()
            for _ in range(calls):
                fn()
            best = min(best, (CLOCK() - t0) / calls)
        print(f"  {name:32s} {best * 1e6:8.2f} us per call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
