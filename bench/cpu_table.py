#!/usr/bin/python3
"""Turns swz_bench_cpu JSON output into Markdown tables (per backend and thread count).

  swz_bench_cpu --benchmark_repetitions=10 --benchmark_report_aggregates_only=true \
      --benchmark_out=cpu.json --benchmark_out_format=json
  bench/cpu_table.py cpu.json

Takes the median aggregate of every benchmark (GB/s, ratio to memcpy of the
same bytes in the same run, and the other counters).
"""
import json
import re
import sys


def load(path):
    with open(path) as f:
        data = json.load(f)
    rows = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name", "median") != "median":
            continue
        name = re.sub(r"/min_time:[0-9.]+|/manual_time|_median$", "", b["run_name"] if "run_name" in b else b["name"])
        rows[name] = b
    return data.get("context", {}), rows


def fmt(v, nd=2):
    return "—" if v is None else f"{v:.{nd}f}"


FORMAT_LABEL = {
    "R8_UNORM": "8 bpp (R8)",
    "R8G8_UNORM": "16 bpp (R8G8)",
    "R8G8B8A8_UNORM": "32 bpp (RGBA8)",
    "R16G16B16A16_FLOAT": "64 bpp (RGBA16F)",
    "R32G32B32A32_FLOAT": "128 bpp (RGBA32F)",
    "BC1_UNORM": "BC1 (8 B/block)",
    "BC7_UNORM": "BC7 (16 B/block)",
}


def copy_table(rows):
    # key: (layout, format, size, backend, threads, wc) -> {dir: bench}
    table = {}
    for name, b in rows.items():
        m = re.match(r"(swizzle|deswizzle)/([^/]+)/([^/]+)/([0-9x]+)/([a-z]+)/t([a-z0-9]+)(/wc)?$", name)
        if not m:
            continue
        d, layout, fmt_, size, be, th, wc = m.groups()
        key = (layout, fmt_, size, be, th, bool(wc))
        table.setdefault(key, {})[d] = b
    out = ["| layout | format | size | backend | threads | swizzle GB/s | × memcpy | × nt-copy | deswizzle GB/s | × memcpy | × nt-copy | memcpy GB/s | nt-copy GB/s |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    order_fmt = list(FORMAT_LABEL)

    def sort_key(k):
        layout, fmt_, size, be, th, wc = k
        px = 1
        for p in size.split("x"):
            px *= int(p)
        return (layout != "std64k", px, order_fmt.index(fmt_) if fmt_ in order_fmt else 99,
                ["highway", "xsimd", "scalar"].index(be), th != "1", wc)

    for k in sorted(table, key=sort_key):
        layout, fmt_, size, be, th, wc = k
        s, ds = table[k].get("swizzle"), table[k].get("deswizzle")
        g = lambda b, c: b.get(c) if b else None
        mc = g(s, "memcpy_GBps") or g(ds, "memcpy_GBps")
        nc = g(s, "ntcopy_GBps") or g(ds, "ntcopy_GBps")
        out.append(f"| {layout}{' (write-combined)' if wc else ''} | {FORMAT_LABEL.get(fmt_, fmt_)} | {size} | {be} | {th} | "
                   f"{fmt(g(s, 'GBps'), 1)} | **{fmt(g(s, 'x_memcpy'))}** | {fmt(g(s, 'x_ntcopy'))} | "
                   f"{fmt(g(ds, 'GBps'), 1)} | **{fmt(g(ds, 'x_memcpy'))}** | {fmt(g(ds, 'x_ntcopy'))} | {fmt(mc, 1)} | {fmt(nc, 1)} |")
    return "\n".join(out)


def other_tables(rows):
    out = ["", "| benchmark | value |", "|---|---|"]
    for name, b in sorted(rows.items()):
        if name.startswith("boxes"):
            out.append(f"| {name} | {b['ns_per_call']:.0f} ns/call, overhead **{b['overhead_ns_per_call']:.0f} ns/call** above one call of the same bytes |")
        elif name.startswith("plan_compile"):
            out.append(f"| {name} | **{b['us_per_compile']:.2f} µs** per Plan::compile |")
        elif name.startswith("memcpy") or name.startswith("ntcopy"):
            out.append(f"| {name} | {b['GBps']:.1f} GB/s |")
    return "\n".join(out)


def tune_table(rows):
    out = ["", "| sweep | GB/s | × memcpy | × nt-copy |", "|---|---|---|---|"]
    for name, b in sorted(rows.items()):
        if name.startswith("tune/"):
            out.append(f"| {name[5:]} | {b['GBps']:.1f} | {b['x_memcpy']:.2f} | {b.get('x_ntcopy', float('nan')):.2f} |")
    return "\n".join(out) if len(out) > 3 else ""


def main():
    ctx, rows = load(sys.argv[1])
    print(f"<!-- {ctx.get('date', '')} host {ctx.get('host_name', '')} cpus {ctx.get('num_cpus', '')} "
          f"load {ctx.get('load_avg', '')} -->")
    print(copy_table(rows))
    print(other_tables(rows))
    print(tune_table(rows))


if __name__ == "__main__":
    main()
