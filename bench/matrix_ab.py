#!/usr/bin/env python3
"""A/B runs of swz_bench_matrix cells, interleaved, for a shared machine.

Each variant is a binary and an optional SWZ_MATRIX_TUNE string. The cells
(a --benchmark_filter regex) run once per variant per round, variants in
turn, for several rounds; the table shows, per cell and variant, the median
over rounds of the single-thread CPU-time ratio to memcpy (x_memcpy_cpu),
and its spread (min-max).

  bench/matrix_ab.py --rounds 5 --filter 'swizzle/nv-bl/.*/4096/user/t1' \\
      A=/tmp/before/swz_bench_matrix B=build/bench/swz_bench_matrix \\
      'C=build/bench/swz_bench_matrix:stretch_prefetch=2'
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(binary, tune, flt, reps, counter):
    env = dict(os.environ)
    env["SWZ_MATRIX_REPS"] = str(reps)
    if tune:
        env["SWZ_MATRIX_TUNE"] = tune
    else:
        env.pop("SWZ_MATRIX_TUNE", None)
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([binary, "--benchmark_filter=" + flt, "--benchmark_out=" + f.name,
                        "--benchmark_out_format=json"], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        data = json.load(open(f.name))
    out = {}
    for b in data["benchmarks"]:
        v = b.get(counter, b.get("x_memcpy")) if counter == "x_memcpy_cpu" else b.get(counter)
        if v is not None:
            out[b["name"].split("/iterations")[0].replace("matrix/", "")] = v
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--filter", required=True)
    ap.add_argument("--counter", default="x_memcpy_cpu",
                    help="the counter to tabulate: x_memcpy_cpu (default), x_floor_cpu (kernel time "
                         "over its floor's), floor_x_memcpy_cpu (the floor against memcpy), GBps_cpu")
    ap.add_argument("variants", nargs="+", help="NAME=BINARY[:TUNE]")
    a = ap.parse_args()
    vs = []
    for v in a.variants:
        name, rest = v.split("=", 1)
        binary, _, tune = rest.partition(":")
        vs.append((name, binary, tune))
    res = {}
    for r in range(a.rounds):
        for name, binary, tune in vs:
            for cell, x in run(binary, tune, a.filter, a.reps, a.counter).items():
                res.setdefault(cell, {}).setdefault(name, []).append(x)
        print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
    names = [v[0] for v in vs]
    print("| cell | " + " | ".join(f"{n} median (min-max)" for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for cell in sorted(res):
        row = []
        for n in names:
            xs = res[cell].get(n, [])
            row.append(f"{statistics.median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f})" if xs else "-")
        print(f"| {cell} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
