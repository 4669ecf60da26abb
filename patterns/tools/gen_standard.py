#!/usr/bin/env python3
"""Regenerate patterns/std64k.json and patterns/std4k.json.

Usage:
    gen_standard.py REFERENCE_JSON [OUT_DIR]     write the two family files
    gen_standard.py --check REFERENCE_JSON [OUT_DIR]
                                                 exit 1 if the files in OUT_DIR
                                                 differ from what would be written

REFERENCE_JSON is the research table of standard-swizzle bit patterns
(tests/data/standard_swizzle_patterns.json in this repository is a verbatim
copy). OUT_DIR defaults to the patterns/ folder that holds this script.
Standard library only.

What is kept (see patterns/README.md):
  std64k: layout "64KB", 1 sample, dim 2D and 3D, in_d3d12_api true.
  std4k:  layout "4KB", 1 sample, dim 2D and 3D (Intel TileYf / AMD SW_4KB_S),
          with each entry's "confirmed" flag copied as it is.
MSAA and 1D entries are never kept. The script checks that every kept pattern
is a permutation of coordinate bits, that its tile shape matches its bits, and
that each 4KB pattern equals the low 12 bits of the 64KB pattern of the same
dimension and element size.
"""
import json
import os
import sys

BPP = (8, 16, 32, 64, 128)

DESCRIPTIONS = {
    "std64k": ("D3D12 64KB standard swizzle (D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE): "
               "one 64KB tile per pattern, 2D and 3D, 1 sample, 1-16 byte elements "
               "(BC1/BC4 use the 8-byte rows, other BC formats the 16-byte rows)."),
    "std4k": ("4KB standard swizzle: Intel TileYf / AMD SW_4KB_S (2D = the low 12 bits of std64k; "
              "3D = the Intel/AMD GFX9 4KB bricks). Not a D3D12 API layout: D3D12 has no 4KB "
              "standard-swizzle texture layout."),
}


def fail(msg):
    sys.stderr.write("gen_standard.py: " + msg + "\n")
    sys.exit(1)


def parse_bit(tok):
    ch, num = tok[0], tok[1:]
    if ch not in "XYZS" or not num.isdigit():
        fail("bad bit token %r" % tok)
    return ch, int(num)


def check_pattern(e, nbits):
    bits = e["bits"]
    where = "%s %s %dbpp" % (e["layout"], e["dim"], e["bpp"])
    if len(bits) != nbits:
        fail("%s: %d bits, expected %d" % (where, len(bits), nbits))
    per = {}
    for tok in bits:
        if "^" in tok:
            fail("%s: XOR term %r in a standard pattern" % (where, tok))
        ch, n = parse_bit(tok)
        per.setdefault(ch, []).append(n)
    for ch, ns in per.items():
        if sorted(ns) != list(range(len(ns))):
            fail("%s: %s bits are not 0..%d: %r" % (where, ch, len(ns) - 1, ns))
    if "S" in per:
        fail("%s: sample bits in a 1-sample pattern" % where)
    eb = e["bpp"] // 8
    k = eb.bit_length() - 1
    if bits[:k] != ["X%d" % i for i in range(k)]:
        fail("%s: bits 0..%d are not the bytes of one element" % (where, k - 1))
    shape = [(1 << len(per.get("X", []))) // eb, 1 << len(per.get("Y", [])), 1 << len(per.get("Z", []))]
    if shape != list(e["tile_texels"]):
        fail("%s: tile_texels %r but the bits give %r" % (where, e["tile_texels"], shape))


def select(ref, layout, nbits, api_only):
    out = []
    for dim in ("2D", "3D"):
        rows = {}
        for e in ref:
            if e["layout"] != layout or e["dim"] != dim or e["samples"] != 1:
                continue
            if api_only and not e["in_d3d12_api"]:
                continue
            if e["bpp"] in rows:
                fail("duplicate entry %s %s %dbpp" % (layout, dim, e["bpp"]))
            check_pattern(e, nbits)
            rows[e["bpp"]] = e
        if sorted(rows) != list(BPP):
            fail("%s %s: element sizes %r, expected %r" % (layout, dim, sorted(rows), list(BPP)))
        out.extend(rows[b] for b in BPP)
    return out


def sources_of(entries):
    seen = []
    for e in entries:
        for s in e["sources"]:
            if s not in seen:
                seen.append(s)
    return seen


def family(name, entries, in_api):
    return {
        "name": name,
        "description": DESCRIPTIONS[name],
        "in_d3d12_api": in_api,
        "sources": sources_of(entries),
        "patterns": [
            {
                "dim": e["dim"],
                "element_bytes": e["bpp"] // 8,
                "tile_texels": list(e["tile_texels"]),
                "bits": list(e["bits"]),
                "confirmed": bool(e["confirmed"]),
            }
            for e in entries
        ],
    }


def dump(doc):
    """Stable text: one pattern per line, everything else indented."""
    lines = ["{"]
    keys = ["name", "description", "in_d3d12_api", "sources"]
    for k in keys:
        if k == "sources":
            lines.append('  "sources": [')
            for i, s in enumerate(doc["sources"]):
                lines.append("    " + json.dumps(s) + ("," if i + 1 < len(doc["sources"]) else ""))
            lines.append("  ],")
        else:
            lines.append("  %s: %s," % (json.dumps(k), json.dumps(doc[k])))
    lines.append('  "patterns": [')
    pats = doc["patterns"]
    for i, p in enumerate(pats):
        lines.append("    " + json.dumps(p, separators=(", ", ": ")) + ("," if i + 1 < len(pats) else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def build(ref):
    p64 = select(ref, "64KB", 16, api_only=True)
    p4 = select(ref, "4KB", 12, api_only=False)
    for a, b in zip(p64, p4):
        if a["dim"] != b["dim"] or a["bpp"] != b["bpp"]:
            fail("internal: 64KB and 4KB lists out of step")
        if b["bits"] != a["bits"][:12]:
            fail("4KB %s %dbpp is not the low 12 bits of the 64KB pattern" % (b["dim"], b["bpp"]))
        if b["dim"] == "2D" and not b["confirmed"]:
            fail("4KB 2D %dbpp is not confirmed in the reference" % b["bpp"])
    return {
        "std64k.json": dump(family("std64k", p64, True)),
        "std4k.json": dump(family("std4k", p4, False)),
    }


def main(argv):
    check = False
    args = list(argv[1:])
    if args and args[0] == "--check":
        check = True
        args = args[1:]
    if not 1 <= len(args) <= 2:
        sys.stderr.write(__doc__)
        return 2
    with open(args[0], encoding="utf-8") as f:
        ref = json.load(f)
    out_dir = args[1] if len(args) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = build(ref)
    stale = []
    for name, text in files.items():
        path = os.path.join(out_dir, name)
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        stale.append(path)
            except OSError:
                stale.append(path)
        else:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print("wrote " + path)
    if stale:
        sys.stderr.write("out of date: " + ", ".join(stale) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
