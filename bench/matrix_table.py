#!/usr/bin/python3
"""Prints the user-case matrix of swz_bench_matrix as Markdown (bench/make_table.sh
writes bench/TABLE.md with it).

  swz_bench_matrix --benchmark_out=matrix.json --benchmark_out_format=json
  bench/matrix_table.py matrix.json [before.json]

One row per (layout, format, size, buffers, threads), swizzle and deswizzle
side by side, each as x memcpy (memcpy of the same bytes on the same buffers,
timed in the same run; medians of the cell's repetitions). With a second file
(an earlier run, e.g. before a change), its x memcpy figures are shown too.
Single-thread cells are read on thread CPU time (x_memcpy_cpu, GBps_cpu) when
the run has them: on a shared machine that leaves out the time the scheduler
gives to other processes. memcpy GB/s is on wall time. Then the worst cells: overall, per layout, per direction, and the
target groups (user buffers, one thread: 4096² swizzle >= 0.90, deswizzle
>= 0.85, 512² >= 0.80; automatic threads never below one thread).
"""
import json
import re
import sys

NAME = re.compile(r"matrix/(swizzle|deswizzle)/([^/]+)/([^/]+)/(\d+)/(page|user)/t(1|2|auto)")
FMT = {"R8_UNORM": "R8", "R8G8B8A8_UNORM": "RGBA8", "BC7_UNORM": "BC7", "R32G32B32A32_FLOAT": "RGBA32F"}
LAYOUTS = ["std64k", "nv-bl", "amd-sw64k-s-x", "intel-tiley"]


def load(path):
    with open(path) as f:
        data = json.load(f)
    cells = {}
    for b in data["benchmarks"]:
        m = NAME.match(b.get("run_name", b["name"]))
        if not m or b.get("error_occurred"):
            continue
        d, lay, fmt, n, buf, th = m.groups()
        cells[(lay, fmt, int(n), buf, th, d)] = b
    return data.get("context", {}), cells


def xm(b):
    """x memcpy of a cell: on thread CPU time for single-thread cells (when
    measured), on wall time for automatic-thread cells."""
    if not b:
        return None
    return b.get("x_memcpy_cpu", b.get("x_memcpy"))


def gbps(b):
    if not b:
        return None
    return b.get("GBps_cpu", b.get("GBps"))


def f2(v):
    return "—" if v is None else f"{v:.2f}"


def table(cells, before):
    keys = sorted({k[:5] for k in cells},
                  key=lambda k: (LAYOUTS.index(k[0]) if k[0] in LAYOUTS else 9, k[2], list(FMT).index(k[1]) if k[1] in FMT else 9,
                                 k[3], k[4] != "1"))
    hdr = "| layout | format | size | buffers | threads | swizzle GB/s | × memcpy | deswizzle GB/s | × memcpy | memcpy GB/s | auto ÷ 1 thread, median (fastest) (swz / deswz) |"
    if before:
        hdr += " before: × memcpy (swz / deswz) |"
    out = [hdr, "|" + "---|" * (hdr.count("|") - 1)]
    for k in keys:
        s, d = cells.get(k + ("swizzle",)), cells.get(k + ("deswizzle",))
        g = lambda b, c: b.get(c) if b else None
        row = (f"| {k[0]} | {FMT.get(k[1], k[1])} | {k[2]}² | {k[3]} | {k[4]} | {f2(gbps(s))} | **{f2(xm(s))}** | "
               f"{f2(gbps(d))} | **{f2(xm(d))}** | {f2(g(s, 'memcpy_GBps') or g(d, 'memcpy_GBps'))} | ")
        row += (f"{f2(g(s, 'x_1thread'))} / {f2(g(d, 'x_1thread'))} (best {f2(g(s, 'x_1thread_best'))} / {f2(g(d, 'x_1thread_best'))}) |"
                if k[4] != "1" else "|")
        if before:
            bs, bd = before.get(k + ("swizzle",)), before.get(k + ("deswizzle",))
            row += f" {f2(xm(bs))} / {f2(xm(bd))} |"
        out.append(row)
    return "\n".join(out)


def label(k):
    lay, fmt, n, buf, th, d = k
    return f"{d} {lay} {FMT.get(fmt, fmt)} {n}² {buf} t{th}"


def worst(cells, pred, counter=None):
    get = xm if counter is None else (lambda b: b.get(counter))
    c = [(get(b), k) for k, b in cells.items() if pred(k) and get(b) is not None]
    return min(c) if c else None


def summary(cells, before):
    groups = [("all cells", lambda k: True)]
    groups += [(f"layout {l}", (lambda l: lambda k: k[0] == l)(l)) for l in LAYOUTS]
    groups += [(d, (lambda d: lambda k: k[5] == d)(d)) for d in ("swizzle", "deswizzle")]
    groups += [
        ("target: user buffers, 1 thread, 4096² swizzle (≥ 0.90)", lambda k: k[3] == "user" and k[4] == "1" and k[2] == 4096 and k[5] == "swizzle"),
        ("target: user buffers, 1 thread, 4096² deswizzle (≥ 0.85)", lambda k: k[3] == "user" and k[4] == "1" and k[2] == 4096 and k[5] == "deswizzle"),
        ("target: user buffers, 1 thread, 512² (≥ 0.80)", lambda k: k[3] == "user" and k[4] == "1" and k[2] == 512),
        ("target: user buffers, 1 thread, 8192² swizzle (≥ 0.90)", lambda k: k[3] == "user" and k[4] == "1" and k[2] == 8192 and k[5] == "swizzle"),
        ("target: user buffers, 1 thread, 8192² deswizzle (≥ 0.85)", lambda k: k[3] == "user" and k[4] == "1" and k[2] == 8192 and k[5] == "deswizzle"),
    ]
    hdr = "| group | worst cell | × memcpy |" + (" before: worst cell | × memcpy |" if before else "")
    out = [hdr, "|" + "---|" * (hdr.count("|") - 1)]
    for name, pred in groups:
        w = worst(cells, pred)
        if w is None and not (before and worst(before, pred)):
            continue  # no such cell in this run (e.g. SWZ_MATRIX_SIZES without 8192)
        row = f"| {name} | {label(w[1]) if w else '—'} | **{f2(w[0]) if w else '—'}** |"
        if before:
            wb = worst(before, pred)
            row += f" {label(wb[1]) if wb else '—'} | {f2(wb[0]) if wb else '—'} |"
        out.append(row)
    w = worst(cells, lambda k: k[4] == "auto", "x_1thread")
    wb = worst(before, lambda k: k[4] == "auto", "x_1thread") if before else None
    if w or wb:
        row = f"| auto threads ÷ 1 thread (target ≥ 1; ≥ 0.95 within noise) | {label(w[1]) if w else '—'} | **{f2(w[0]) if w else '—'}** |"
        if before:
            row += f" {label(wb[1]) if wb else '—'} | {f2(wb[0]) if wb else '—'} |"
        out.append(row)
    w = worst(cells, lambda k: k[4] == "2", "x_1thread")
    if w:
        out.append(f"| two threads ÷ 1 thread, 8192² (target ≥ 1.6 where the bandwidth allows) | {label(w[1])} | **{f2(w[0])}** |"
                   + (" | |" if before else ""))
    w = worst(cells, lambda k: k[4] == "auto", "x_1thread_best")
    if w:
        out.append(f"| auto ÷ 1 thread, fastest repetitions | {label(w[1])} | **{f2(w[0])}** |" + (" | |" if before else ""))
    return "\n".join(out)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    ctx, cells = load(sys.argv[1])
    before = load(sys.argv[2])[1] if len(sys.argv) > 2 else None
    print(f"<!-- {ctx.get('date', '')} {ctx.get('host_name', '')} {ctx.get('num_cpus', '')} CPUs -->")
    print(summary(cells, before))
    print()
    print(table(cells, before))
    w = worst(cells, lambda k: True)
    if w:
        print()
        print(f"Worst cell: {label(w[1])}: {w[0]:.2f}x memcpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
