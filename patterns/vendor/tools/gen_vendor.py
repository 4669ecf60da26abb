#!/usr/bin/env python3
"""Regenerate patterns/vendor/{nvidia,amd,intel,other}.json.

Usage:
    gen_vendor.py [REFERENCE_JSON [OUT_DIR]]          write the four files
    gen_vendor.py --check [REFERENCE_JSON [OUT_DIR]]  exit 1 if they would change

REFERENCE_JSON is the research table of real vendor bit equations
(tests/data/hw/real_patterns.json in this repository is a verbatim copy;
its companion notes explain how each row was read and checked). OUT_DIR
defaults to patterns/vendor/ next to this script. Standard library only.

Two kinds of rows are written:
  * rows copied from the research table (their "from" key names the row);
  * rows computed here from a public formula, for element sizes the table does
    not list (PS4 1D_THIN Morton, Mali u-interleaved, Adreno a6xx, Apple AGX
    Morton tiles). Every such formula is checked against the table's row for the
    element size the table does list, so a transcription slip fails here.
AMD rows keep addrlib's own term order ("raw"): the library imports them with
canonicalize() and the block extents given in "block" (X in bytes x rows). AMD 3D
rows come from tests/data/hw/amd_3d_equations.json (addrlib's 3D equations).
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DEFAULT_REF = os.path.join(REPO, "tests", "data", "hw", "real_patterns.json")
AMD_3D = None
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, ".."))


def fail(msg):
    sys.stderr.write("gen_vendor.py: " + msg + "\n")
    sys.exit(1)


def bits_of(row):
    return ["^".join([b["src"]] + b["xor"]) for b in row["bits"]]


def log2(v):
    n = v.bit_length() - 1
    if v != 1 << n:
        fail("%d is not a power of two" % v)
    return n


# ---------------------------------------------------------------- checks ----
def parse_term(t):
    return t[0], int(t[1:])


def primaries_extents(bits):
    """Block extents from the primaries (X bytes, Y, Z, S) when they are the
    channels' bits 0..m-1, else None."""
    seen = {"X": set(), "Y": set(), "Z": set(), "S": set()}
    for b in bits:
        c, i = parse_term(b.split("^")[0])
        if i in seen[c]:
            return None
        seen[c].add(i)
    ext = {}
    for c, s in seen.items():
        if s != set(range(len(s))):
            return None
        ext[c] = 1 << len(s)
    return ext


def matching_exists(bits, ext):
    """Bipartite matching address bit -> in-block term (what canonicalize does)."""
    m = {c: log2(ext.get(c, 1)) for c in "XYZS"}
    n = len(bits)
    if sum(m.values()) != n:
        return False
    cand = []
    for b in bits:
        s = []
        for t in b.split("^"):
            c, i = parse_term(t)
            if i < m[c]:
                s.append((c, i))
        cand.append(s)
    owner = {}

    def aug(i, seen):
        for t in cand[i]:
            if t in seen:
                continue
            seen.add(t)
            if t not in owner or aug(owner[t], seen):
                owner[t] = i
                return True
        return False

    return all(aug(i, set()) for i in range(n))


def ext_text(ext):
    s = "%dx%d" % (ext.get("X", 1), ext.get("Y", 1))
    if ext.get("Z", 1) > 1 or ext.get("S", 1) > 1:
        s += "x%d" % ext.get("Z", 1)
    if ext.get("S", 1) > 1:
        s += "x%d" % ext.get("S", 1)
    return s


# ---------------------------------------------------------------- NVIDIA ----
def nvidia(ref):
    by = {r["name"]: r for r in ref}
    gobs = []
    for key, row, eb, note in (
        ("tegra", "nvidia_tegra_x1_block_linear_bh1", "any",
         "Tegra K1..TX2 / Nintendo Switch (DRM sector layout 0)"),
        ("turing", "nvidia_turing_color2d_block_linear_bh16", "any",
         "desktop Turing+ and Xavier/Orin color GOB (NVK TuringColor2D, DRM sector layout 1); Blackwell for elements of 4+ bytes"),
        ("blackwell16", "nvidia_blackwell_16bit_block_linear_bh16", [2],
         "GB20x 2-byte formats (NVK Blackwell16Bit, DRM sector layout 3)"),
        ("blackwell8", "nvidia_blackwell_8bit_block_linear_bh16", [1],
         "GB20x 1-byte formats (NVK Blackwell8Bit, DRM sector layout 2)"),
    ):
        r = by[row]
        b = bits_of(r)[:9]
        if primaries_extents(b) != {"X": 64, "Y": 8, "Z": 1, "S": 1}:
            fail("GOB %s is not 64 B x 8 rows" % key)
        gobs.append({"gob": key, "element_bytes": eb, "bits": b, "from": row, "note": note})
    # The composed block (GOB, then Y3.., then Z0..) must equal the table's bh16 / bd16 rows.
    tegra = gobs[0]["bits"]
    if tegra + ["Y3", "Y4", "Y5", "Y6"] != bits_of(by["nvidia_tegra_x1_block_linear_bh16"]):
        fail("Tegra bh16 row is not GOB + Y3..Y6")
    if tegra + ["Z0", "Z1", "Z2", "Z3"] != bits_of(by["nvidia_tegra_x1_block_linear_bh1_bd16_3d"]):
        fail("Tegra bd16 row is not GOB + Z0..Z3")
    return {
        "name": "nvidia",
        "description": "NVIDIA block-linear GOB orders. A block is 1 GOB (64 B) wide, 2^bh GOBs tall and 2^bd GOBs deep: "
                       "address bits 0-8 are the GOB order below, then Y3..Y(2+log2 bh), then Z0..Z(log2 bd - 1). "
                       "Blocks are row-major (row pitch = GOBs across x 512 x bh x bd bytes).",
        "sources": list(dict.fromkeys(by[g["from"]]["source"] for g in gobs)),
        "not_expressible": {
            "fermi": "NVK FermiColor (Fermi..Volta) is affine: address bit 5 = NOT(Y1 ^ X4) needs a constant XOR below "
                     "bit 8, which D3D12DDI_SWIZZLE_PATTERN_DESC_0022 cannot hold (" + by["nvidia_fermi_color_nvk_block_linear_bh1"]["source"] + ")"
        },
        "gobs": gobs,
    }


# ------------------------------------------------------------------- AMD ----
AMD_CONFIGS = {
    ("gfx9", "vega10_gb2a114042"): ("gfx9", 4, "Vega10, GB_ADDR_CONFIG 0x2a114042: 4 pipes, 16 banks, 4 SE, 4 RB/SE"),
    ("gfx10", "navi10_16pipe_gb00100044"): ("gfx10", 16, "Navi10, GB_ADDR_CONFIG 0x00100044: 16 pipes, no RB+"),
    ("gfx103", "8pipe_8pkr_gb343"): ("gfx10.3", 8, "GFX10.3 RB+, 8 pipes, 8 packers (GB_ADDR_CONFIG 0x343)"),
    ("gfx103", "16pipe_16pkr_gb444"): ("gfx10.3", 16, "GFX10.3 RB+, 16 pipes, 16 packers (GB_ADDR_CONFIG 0x444)"),
    ("gfx11", "8pipe_8pkr_gb343"): ("gfx11", 8, "GFX11, 8 pipes, 8 packers (GB_ADDR_CONFIG 0x343)"),
    ("gfx11", "32pipe_32pkr_gb545"): ("gfx11", 32, "GFX11, 32 pipes, 32 packers (GB_ADDR_CONFIG 0x545)"),
}
AMD_SIZES = {"256B": "256b", "4KB": "4k", "64KB": "64k", "256KB": "256k"}
AMD_MODE_TEXT = {
    "s": "standard", "d": "displayable", "r": "render", "z": "depth",
}


def gfx9_thick_standard(k, nbits):
    """GFX9 standard-swizzle 3D ("thick") equation for 2^k-byte elements: X in bytes."""
    micro = [["x0", "x1", "x2", "x3", "y0", "y1", "z0", "z1", "z2", "y2"],
             ["x0", "x1", "x2", "y0", "y1", "z0", "z1", "z2", "y2"],
             ["x0", "x1", "y0", "y1", "z0", "z1", "y2", "x2"],
             ["x0", "y0", "y1", "z0", "z1", "x1", "x2"],
             ["y0", "y1", "z0", "z1", "x0", "x1"]][k]
    used = {"x": 0, "y": 0, "z": 0}
    bits = ["X%d" % i for i in range(k)]
    for t in micro:
        c, i = t[0], int(t[1:])
        used[c] = max(used[c], i + 1)
        bits.append("X%d" % (i + k) if c == "x" else t.upper())
    for i in range(len(bits), nbits):
        c = "xzy"[i % 3]
        bits.append("X%d" % (used[c] + k) if c == "x" else "%s%d" % (c.upper(), used[c]))
        used[c] += 1
    return bits


def amd(ref):
    fams = {}
    order = []
    rx = re.compile(r"^amd_(gfx9|gfx10|gfx103|gfx11)_(.+?)_SW_(256B|4KB|64KB|256KB)_([SDRZ])(_X|_T)?_32bpp$")
    for r in ref:
        m = rx.match(r["name"])
        if not m:
            continue
        gen, cfg, size, mode, suffix = m.groups()
        if (gen, cfg) not in AMD_CONFIGS:
            fail("unknown AMD configuration " + r["name"])
        gname, pipes, cfg_text = AMD_CONFIGS[(gen, cfg)]
        name = "amd-%s-sw%s-%s%s" % (gname, AMD_SIZES[size], mode.lower(), suffix.lower().replace("_", "-") if suffix else "")
        bits = bits_of(r)
        n = len(bits)
        if 1 << n != r["block_bytes"]:
            fail(r["name"] + ": block_bytes does not match the bit count")
        # 2D block of 4-byte elements: width gets the odd bit (addrlib block dimensions).
        rem = n - 2
        ext = {"X": 4 << ((rem + 1) // 2), "Y": 1 << (rem // 2), "Z": 1, "S": 1}
        if not matching_exists(bits, ext):
            fail(r["name"] + ": no canonical term order for block " + ext_text(ext))
        if name not in fams:
            mode_text = AMD_MODE_TEXT[mode.lower()]
            xt = {"_X": ", pipe/bank XOR terms (array slice on Z)", "_T": ", pipe/bank XOR without the slice"}.get(suffix, "")
            fams[name] = {
                "name": name,
                "description": "AMD %s SW_%s_%s%s (%s%s), 2D, 1 sample; equations from addrlib for each configuration listed" % (
                    gname.upper(), size, mode, suffix or "", mode_text, xt),
                "source": r["source"],
                "placement": "amd",
                "patterns": [],
            }
            order.append(name)
        if r["source"] not in fams[name]["source"]:
            fams[name]["source"] += "; " + r["source"]
        fams[name]["patterns"].append({
            "config": "pipes=%d" % pipes, "config_text": cfg_text, "element_bytes": [4], "dim": "2D", "samples": 1,
            "block": ext_text(ext), "raw": bits, "from": r["name"],
            "checked": "20000/20000 random coordinates vs Addr2ComputeSurfaceAddrFromCoord (research notes)"})
    # Research notes section 2: for 8/16/32/64/128 bpp, GFX9 and GFX10 SW_64KB_S == Intel TileYs
    # and SW_4KB_S == Intel TileYf (addrlib output compared bit for bit with the gmmlib masks).
    # The other element sizes of those modes therefore come from the gmmlib rows.
    by = {r["name"]: r for r in ref}
    for gname, pipes in (("gfx9", 4), ("gfx10", 16)):
        for size, tile in (("64k", "ys"), ("4k", "yf")):
            fam = fams.get("amd-%s-sw%s-s" % (gname, size))
            if fam is None:
                fail("missing amd-%s-sw%s-s" % (gname, size))
            four = fam["patterns"][0]
            if four["raw"] != bits_of(by["intel_tile_%s_32" % tile]):
                fail("identity %s SW_%s_S == Tile%s does not hold at 32 bpp" % (gname, size, tile))
            for bpp, eb in ((8, 1), (16, 2), (64, 8), (128, 16)):
                row = by["intel_tile_%s_%d" % (tile, bpp)]
                fam["patterns"].append({
                    "config": four["config"], "config_text": four["config_text"], "element_bytes": [eb], "dim": "2D", "samples": 1,
                    "bits": bits_of(row), "from": row["name"],
                    "checked": "identity SW_%sB_S == Intel Tile%s for 8-128 bpp (research notes: addrlib output compared bit for bit with gmmlib)" % (size.upper(), tile.capitalize())})
            fam["source"] += "; other element sizes: " + by["intel_tile_%s_32" % tile]["source"]

    # GFX9 SW_4KB_S / SW_64KB_S on 3D surfaces are "thick" standard-swizzle modes (Gfx9Lib::HwlIsThick):
    # gfx9addrlib.cpp HwlComputeThickEquation, standard branch, builds a 1 KiB micro-block from a
    # per-element-size table, then gives address bits i >= 10 to X, Z, Y for i mod 3 = 0, 1, 2. The formula
    # is written below and checked against the TileYs 3D row of the table (the same standard swizzle).
    for gname in ("gfx9",):
        for size, nbits in (("64k", 16), ("4k", 12)):
            fam = fams["amd-%s-sw%s-s" % (gname, size)]
            four = fam["patterns"][0]
            for eb in (1, 2, 4, 8, 16):
                bits = gfx9_thick_standard(log2(eb), nbits)
                if nbits == 16 and eb == 4 and bits != bits_of(by["intel_tile_ys_3d_32"]):
                    fail("GFX9 thick standard equation does not match intel_tile_ys_3d_32")
                fam["patterns"].append({
                    "config": four["config"], "config_text": four["config_text"], "element_bytes": [eb], "dim": "3D",
                    "samples": 1, "bits": bits, "from": "Gfx9Lib::HwlComputeThickEquation (standard branch)",
                    "checked": "formula in tools/gen_vendor.py; 64 KiB 32 bpp equals intel_tile_ys_3d_32 (D3D12 64KB standard swizzle 3D)"})
            fam["description"] += "; 3D: thick standard swizzle (HwlComputeThickEquation)"

    # GFX10 SW_4KB_S / SW_64KB_S on 3D surfaces are thick too, with their own order (the "S3" patterns, not
    # the GFX9 / D3D12 one): gfx10SwizzlePattern.h GFX10_SW_64K_S3_PATINFO and GFX10_SW_4K_S3_PATINFO, non-XOR
    # rows (the same for every pipe count), 1-16 byte elements: nibble rows NIBBLE01[29..33], NIBBLE2[131..135],
    # NIBBLE3[148..152] (4 KiB: the first 12 bits), transcribed below in pixel coordinates ("0": an element byte).
    s3_nibbles = [
        ("X0 X1 Z0 Y0 Z1 Y1 X2 Z2", "Y2 X3 Z3 Y3", "X4 Z4 Y4 X5"),
        ("0 X0 Z0 Y0 Z1 Y1 X1 Z2", "Y2 X2 Z3 Y3", "X3 Z4 Y4 X4"),
        ("0 0 X0 Y0 Z0 Y1 X1 Z1", "Y2 X2 Z2 Y3", "X3 Z3 Y4 X4"),
        ("0 0 0 X0 Z0 Y0 X1 Z1", "Y1 X2 Z2 Y2", "X3 Z3 Y3 X4"),
        ("0 0 0 0 Z0 Y0 X0 Z1", "Y1 X1 Z2 Y2", "X2 Z3 Y3 X3"),
    ]
    # Block extents of the 64 KiB rows: Gfx10Lib::Block64K_Log2_3d (x, y, z log2 in elements).
    s3_extents = [(6, 5, 5), (5, 5, 5), (5, 5, 4), (5, 4, 4), (4, 4, 4)]
    for size, nbits in (("64k", 16), ("4k", 12)):
        fam = fams["amd-gfx10-sw%s-s" % size]
        four = fam["patterns"][0]
        for k, eb in enumerate((1, 2, 4, 8, 16)):
            bits = []
            for t in " ".join(s3_nibbles[k]).split():
                if t == "0":
                    bits.append("X%d" % len(bits))
                elif t[0] == "X":
                    bits.append("X%d" % (int(t[1:]) + k))
                else:
                    bits.append(t)
            ext = primaries_extents(bits)
            want = s3_extents[k]
            if nbits == 16 and (ext is None or (log2(ext["X"]) - k, log2(ext["Y"]), log2(ext["Z"])) != want):
                fail("GFX10 S3 row for %d-byte elements does not give the Block64K_Log2_3d extents" % eb)
            fam["patterns"].append({
                "config": four["config"], "config_text": four["config_text"], "element_bytes": [eb], "dim": "3D",
                "samples": 1, "bits": bits[:nbits],
                "from": "gfx10SwizzlePattern.h GFX10_SW_%s_S3_PATINFO (NIBBLE01[%d], NIBBLE2[%d]%s)" % (
                    size.upper(), 29 + k, 131 + k, ", NIBBLE3[%d]" % (148 + k) if nbits == 16 else ""),
                "checked": "transcribed from the table (not run through addrlib); extents equal Gfx10Lib::Block64K_Log2_3d; the 1-byte row equals the research notes' GFX10 SW_64K_S3 order"})
        fam["description"] += "; 3D: thick S3 pattern (GFX10_SW_*_S3_PATINFO)"

    # GFX10.3 SW_VAR (named sw256k here) with 8 pipes: addrlib's variable block is 2^(pipes log2 + 14) bytes
    # (Gfx10Lib::HwlInitGlobalParams, m_blockVarSizeLog2), 128 KiB.
    for mode in ("r-x", "z-x"):
        fam = fams.get("amd-gfx10.3-sw256k-" + mode)
        if fam is not None:
            fam["description"] += ". With pipes=8 addrlib's equation has 17 bits: the block is 128 KiB, not 256"

    # 3D surfaces (ADDR_RSRC_TEX_3D) of every GFX9-GFX11 mode addrlib allows in 3D, 1-16 byte elements:
    # tests/data/hw/amd_3d_equations.json (equations of a local addrlib build, same revision and
    # GB_ADDR_CONFIG values as the research table; see its "source"). Thick modes (standard and display on
    # GFX10+, standard and Z on GFX9) have Z in the block; thin ones (GFX10+ Z/R, GFX9 display) keep the 2D
    # block and read the depth slice in their XOR terms. Rows the families already carry (GFX9 / GFX10 S
    # modes, from the formula and the S3 table above) must equal addrlib's.
    for r in AMD_3D["rows"]:
        fam = fams.get(r["family"])
        if fam is None:
            fail("amd_3d_equations.json: unknown family " + r["family"])
        have = [p for p in fam["patterns"] if p["dim"] == "3D" and p["element_bytes"] == [r["element_bytes"]]
                and p["config"] == r["config"]]
        if have:
            if (have[0].get("bits") or have[0].get("raw")) != r["raw"]:
                fail("%s %d-byte 3D row differs from addrlib's equation" % (r["family"], r["element_bytes"]))
            continue
        ext = {}
        parts = [int(v) for v in r["block"].split("x")]
        for c, v in zip("XYZ", parts):
            ext[c] = v
        if not matching_exists(r["raw"], ext):
            fail("%s %d-byte 3D: no canonical term order for block %s" % (r["family"], r["element_bytes"], r["block"]))
        src = [p for p in fam["patterns"] if p["config"] == r["config"]]
        fam["patterns"].append({
            "config": r["config"], "config_text": src[0]["config_text"], "element_bytes": [r["element_bytes"]],
            "dim": "3D", "samples": 1, "block": r["block"], "raw": r["raw"],
            "from": "amd_3d_equations.json %s %d-byte (%s)" % (r["addrlib_mode"], r["element_bytes"], r["config"]),
            "checked": "addrlib equation table (local build); whole 3D resources checked against Addr2ComputeSurfaceAddrFromCoord (tests/hw/test_hw_amd_3d.cpp)"})
    for fam in fams.values():
        if any(p["dim"] == "3D" and p.get("raw") for p in fam["patterns"]):
            thick = any(p["dim"] == "3D" and "x" in p.get("block", "").split("x", 1)[-1] for p in fam["patterns"])
            sizes = sorted({p["element_bytes"][0] for p in fam["patterns"] if p["dim"] == "3D"})
            fam["description"] += "; 3D: addrlib's %s 3D equations (%s-byte elements)" % (
                "thick" if thick else "thin", "/".join(str(v) for v in sizes))

    # GFX12 (no XOR): primaries already canonical.
    rx12 = re.compile(r"^amd_gfx12_(256B|4KB|64KB|256KB)_(2D|3D)(?:_(\d)xAA)?_32bpp$")
    for r in ref:
        m = rx12.match(r["name"])
        if not m:
            continue
        size, dim, aa = m.groups()
        name = "amd-gfx12-sw%s-%s" % (AMD_SIZES[size], dim.lower())
        bits = bits_of(r)
        ext = primaries_extents(bits)
        if ext is None:
            fail(r["name"] + ": primaries are not canonical")
        if name not in fams:
            fams[name] = {
                "name": name,
                "description": "AMD GFX12 (RDNA4) %s_%s swizzle (no XOR inside the block; pipe/bank XOR as the immediate); parsed from the addrlib tables, not run" % (size, dim),
                "source": r["source"],
                "placement": "amd",
                "patterns": [],
            }
            order.append(name)
        fams[name]["patterns"].append({
            "element_bytes": [4], "dim": dim, "samples": int(aa) if aa else 1, "block": ext_text(ext),
            "raw": bits, "from": r["name"], "checked": "parsed from gfx12SwizzlePattern.h (research notes); not run through addrlib"})
    return {
        "name": "amd",
        "description": "AMD addrlib swizzle equations (GFX9 .. GFX12) for the configurations the research ran. X is in bytes; "
                       "Z is the array slice (2D arrays) or the depth slice (3D). Terms are in addrlib's order; the library "
                       "reorders them with canonicalize() for the block extents given.",
        "families": [fams[k] for k in order],
    }


# ----------------------------------------------------------------- Intel ----
def intel(ref):
    by = {r["name"]: r for r in ref}
    gm = by["intel_tile_x"]["source"]
    isl = by["intel_tile_x_bit6_swizzle_9_10"]["source"]

    def row(name, eb, **kw):
        r = by[name]
        b = bits_of(r)
        e = {"element_bytes": eb, "dim": kw.pop("dim", "2D"), "samples": kw.pop("samples", 1)}
        e.update(kw)
        e["bits"] = b
        e["from"] = name
        if primaries_extents(b) is None:
            fail(name + ": primaries are not canonical")
        return e

    sizes = [(8, 1), (16, 2), (32, 4), (64, 8), (128, 16)]
    fams = [
        {"name": "intel-tilex", "description": "Intel TileX: 4 KiB tiles of 512 B x 8 rows, row-major with the surface pitch",
         "source": gm + "; bit-6 swizzle: " + isl, "placement": "intel",
         "patterns": [row("intel_tile_x", "any"), row("intel_tile_x_bit6_swizzle_9_10", "any", variant="bit6")]},
        {"name": "intel-tiley", "description": "Intel TileY (legacy Y-major): 4 KiB tiles of 128 B x 32 rows (16 B columns)",
         "source": gm + "; bit-6 swizzle: " + isl, "placement": "intel",
         "patterns": [row("intel_tile_y", "any"), row("intel_tile_y_bit6_swizzle_9", "any", variant="bit6")]},
        {"name": "intel-tilew", "description": "Intel TileW (separate stencil, 1-byte elements): 4 KiB tiles of 64 B x 64 rows",
         "source": gm, "placement": "intel", "patterns": [row("intel_tile_w", [1])]},
        {"name": "intel-tile4", "description": "Intel Tile4 (Xe-HP and later): 4 KiB tiles of 128 B x 32 rows",
         "source": gm, "placement": "intel", "patterns": [row("intel_tile_4", "any")]},
        {"name": "intel-tileyf", "description": "Intel TileYf: 4 KiB standard tiles (= std4k 2D = AMD SW_4KB_S); 2D mips with the gmmlib mip tail",
         "source": gm, "placement": "intel", "patterns": [row("intel_tile_yf_%d" % b, [e]) for b, e in sizes]},
        {"name": "intel-tileys", "description": "Intel TileYs: 64 KiB standard tiles (= std64k 2D = AMD SW_64KB_S); 2D mips with the gmmlib mip tail; 4x MSAA and 3D at 4-byte elements",
         "source": gm, "placement": "intel",
         "patterns": [row("intel_tile_ys_%d" % b, [e]) for b, e in sizes] +
                     [row("intel_tile_ys_msaa4_32", [4], samples=4), row("intel_tile_ys_3d_32", [4], dim="3D")]},
        {"name": "intel-tile64", "description": "Intel Tile64 (Xe-HP and later): 64 KiB tiles; 3D at 4-byte elements; 'v2' tables (newer parts) for 4x MSAA and 3D",
         "source": gm, "placement": "intel",
         "patterns": [row("intel_tile_64_%d" % b, [e]) for b, e in sizes] +
                     [row("intel_tile_64_3d_32", [4], dim="3D"),
                      row("intel_tile_64_v2_msaa4_32", [4], samples=4, variant="v2"),
                      row("intel_tile_64_v2_3d_32", [4], dim="3D", variant="v2")]},
    ]
    return {"name": "intel",
            "description": "Intel tilings (gmmlib CpuSwizzleBlt tables; isl for the bit-6 swizzle). X is the byte column inside the tile row.",
            "families": fams}


# ----------------------------------------------------------------- other ----
def x(i):
    return "X%d" % i


def y(i):
    return "Y%d" % i


def ps4_thin(k):
    # addrlib1 ComputePixelIndexWithinMicroTile, non-displayable thin: x0 y0 x1 y1 x2 y2.
    return [x(i) for i in range(k)] + [x(k), y(0), x(k + 1), y(1), x(k + 2), y(2)]


def mali(k, pairs):
    # pan_tiling.c: index bits (x_i ^ y_i, y_i) for i < pairs; byte = index * element bytes.
    out = [x(i) for i in range(k)]
    for i in range(pairs):
        out += [x(k + i) + "^" + y(i), y(i)]
    return out


def adreno(cpp, mode):
    """fd6_tiled_memcpy.cc: get_block_size, get_pixel_offset, block_x_xormask, block_y_xormask.
    Block = the 2 KiB half-macrotile (2 x 4 UBWC blocks of 256 B)."""
    k = log2(cpp)
    bw, bh = {1: (32, 8), 2: (32, 4), 4: (16, 4), 8: (8, 4), 16: (4, 4)}[cpp]
    lw, lh = log2(bw), log2(bh)
    # get_pixel_offset: b0=x0 b1=y0 b2=x1 b3=y1 b4..b6=x2..x4 b7=y2 (only bits below 256/cpp pixels exist)
    order = [("x", 0), ("y", 0), ("x", 1), ("y", 1), ("x", 2), ("x", 3), ("x", 4), ("y", 2)]
    pix = []
    for c, i in order:
        if (c == "x" and i < lw) or (c == "y" and i < lh):
            pix.append(x(k + i) if c == "x" else y(i))
    out = [x(i) for i in range(k)] + pix
    if len(out) != 8:
        fail("adreno cpp %d: UBWC block is not 256 bytes" % cpp)
    bx = [x(k + lw + i) for i in range(3)]  # block column bits 0..2
    by = [y(lh + i) for i in range(3)]      # block row bits 0..2 (bit 2 = macrotile row bit 0)
    small = cpp < 16
    a8 = [bx[0], by[1]]
    a9 = [bx[0]] + ([bx[1]] if small else []) + [by[0], by[1]]
    a10 = [bx[0], by[0]] + ([bx[2], by[2]] if (small and mode == "8ch") else [])
    # Primary choice (canonical): a8 <- by1, a9 <- bx0, a10 <- by0.
    def chain(first, rest):
        return "^".join([first] + [t for t in rest if t != first])
    out += [chain(by[1], a8), chain(bx[0], a9), chain(by[0], a10)]
    return out


def morton(k, nbits):
    """Morton (x first) of element coordinates above k byte bits, nbits address bits in all."""
    out = [x(i) for i in range(k)]
    xi, yi = k, 0
    while len(out) < nbits:
        out.append(x(xi)); xi += 1
        if len(out) < nbits:
            out.append(y(yi)); yi += 1
    return out


def apple_tile(k):
    # ail_get_max_tile_size: 16 KiB tiles, w x h = 128x128, 128x64, 64x64, 64x32, 32x32 for 1..16 B.
    tw, th = {0: (128, 128), 1: (128, 64), 2: (64, 64), 3: (64, 32), 4: (32, 32)}[k]
    s = min(tw, th)
    b = morton(k, k + 2 * log2(s))
    xi = k + log2(s)
    while (1 << len(b)) < 16384:
        b.append(x(xi)); xi += 1
    return b, tw, th


def other(ref):
    by = {r["name"]: r for r in ref}

    def same(generated, name):
        if generated != bits_of(by[name]):
            fail("formula does not reproduce %s: %s vs %s" % (name, generated, bits_of(by[name])))

    sizes = [1, 2, 4, 8, 16]
    # Xbox 360
    x360 = []
    for bpp, eb in ((8, 1), (16, 2), (32, 4), (64, 8), (128, 16)):
        r = by["xbox360_2d_tiled_%dbpp" % bpp]
        e = {"element_bytes": [eb], "dim": "2D", "samples": 1, "bits": bits_of(r), "from": r["name"]}
        if eb <= 2:
            e["pitch_multiple_texels"] = 128 if eb == 1 else 64
        x360.append(e)
    # PS4 / GCN 1D_THIN
    same(ps4_thin(2), "gcn_1d_thin_nondisplay_32bpp")
    same(ps4_thin(3), "gcn_1d_thin_nondisplay_bc1")
    same(ps4_thin(4), "gcn_1d_thin_nondisplay_bc3_128bpp")
    ps4 = [{"element_bytes": [1 << k], "dim": "2D", "samples": 1, "bits": ps4_thin(k),
            "derived": "addrlib1 ComputePixelIndexWithinMicroTile (x0 y0 x1 y1 x2 y2)"} for k in range(5)]
    ps4d = [{"element_bytes": [4], "dim": "2D", "samples": 1, "bits": bits_of(by["gcn_displayable_micro_32bpp"]),
             "from": "gcn_displayable_micro_32bpp"}]
    # Mali
    same(mali(2, 4), "arm_mali_u_interleaved_32bpp")
    mali_rows = [{"element_bytes": [1 << k], "dim": "2D", "samples": 1, "compressed": False, "bits": mali(k, 4),
                  "derived": "pan_tiling.c u-interleaved index bits, 16x16 texel tile"} for k in range(5)]
    mali_rows += [{"element_bytes": [1 << k], "dim": "2D", "samples": 1, "compressed": True, "bits": mali(k, 2),
                   "derived": "pan_tiling.c u-interleaved index bits, 4x4 block tile (block-compressed formats)"} for k in (3, 4)]
    # Adreno
    same(adreno(4, "4ch"), "qcom_a6xx_tile6_cpp4_4ch")
    same(adreno(4, "8ch"), "qcom_a6xx_tile6_cpp4_8ch")
    adr = []
    for mode in ("4ch", "8ch"):
        for k in range(5):
            adr.append({"element_bytes": [1 << k], "dim": "2D", "samples": 1, "variant": mode, "bits": adreno(1 << k, mode),
                        "derived": "fd6_tiled_memcpy.cc get_pixel_offset / block_x_xormask / block_y_xormask, %s macrotile mode" % mode})
    # Apple
    t4, _, _ = apple_tile(2)
    same(t4, "apple_agx_twiddled_32bpp")
    apple = []
    for k in range(5):
        b, tw, th = apple_tile(k)
        apple.append({"element_bytes": [1 << k], "dim": "2D", "samples": 1, "bits": b,
                      "tile_texels": [tw, th], "derived": "ail_get_max_tile_size + Morton (x first) inside the tile (tiling.cc: x bits on even, y bits on odd element-index bits)"})

    xen = by["xbox360_2d_tiled_32bpp"]["source"]
    gcn = by["gcn_1d_thin_nondisplay_32bpp"]["source"]
    return {
        "name": "other",
        "description": "Console and mobile layouts the research found exactly expressible.",
        "families": [
            {"name": "xbox360-tiled", "description": "Xbox 360 (Xenos) 2D tiled textures: 32-row blocks, row-major, pitch in 32-texel units; "
             "BCn as 8/16-byte elements. 1- and 2-byte elements only when the pitch is a multiple of 128 / 64 texels",
             "source": xen, "placement": "tiles", "patterns": x360},
            {"name": "ps4-1d-thin", "description": "PS4 / GCN (GFX6-8) 1D_THIN non-displayable micro tiles: 8x8 elements, Morton x0 y0 x1 y1 x2 y2, micro tiles row-major, width and height padded to 8",
             "source": gcn, "placement": "tiles", "patterns": ps4},
            {"name": "ps4-1d-thin-display", "description": "GCN displayable micro tile, 4-byte elements (x0 x1 y0 x2 y1 y2)",
             "source": gcn, "placement": "tiles", "patterns": ps4d},
            {"name": "mali-u-interleaved", "description": "Arm Mali u-interleaved: 16x16 texel tiles (4x4 blocks for block-compressed formats), index bits (x_i^y_i, y_i), tiles row-major",
             "source": by["arm_mali_u_interleaved_32bpp"]["source"], "placement": "tiles", "patterns": mali_rows},
            {"name": "adreno-a6xx", "description": "Qualcomm Adreno a6xx/a7xx tiled (non-UBWC): 2 KiB half-macrotiles with the macrotile XOR scheme, "
             "rows of macrotiles at macrotile_stride x 4096 bytes; optional bank swizzle (highest bank bit) as postamble terms",
             "source": by["qcom_a6xx_tile6_cpp4_4ch"]["source"], "placement": "adreno", "patterns": adr},
            {"name": "apple-twiddled", "description": "Apple AGX twiddled textures: Morton (x first) inside 16 KiB page tiles, tiles row-major; "
             "levels smaller than a tile use smaller square Morton tiles (current Mesa calls this AIL_TILING_GPU)",
             "source": by["apple_agx_twiddled_32bpp"]["source"] + " (ail_initialize_gpu_tiled, ail_get_max_tile_size; tiling.cc memcpy_small)",
             "placement": "apple", "patterns": apple},
        ],
    }


# ------------------------------------------------------------------ main ----
def dump(obj):
    """JSON with one pattern per line (diff-friendly)."""
    def enc(v, ind):
        sp = "  " * ind
        if isinstance(v, dict):
            if "bits" in v or "raw" in v:
                return json.dumps(v, ensure_ascii=True)
            items = [sp + "  " + json.dumps(k) + ": " + enc(val, ind + 1) for k, val in v.items()]
            return "{\n" + ",\n".join(items) + "\n" + sp + "}"
        if isinstance(v, list) and v and isinstance(v[0], dict):
            return "[\n" + ",\n".join(sp + "  " + enc(e, ind + 1) for e in v) + "\n" + sp + "]"
        return json.dumps(v, ensure_ascii=True)
    return enc(obj, 0) + "\n"


def main(argv):
    check = False
    if argv and argv[0] == "--check":
        check = True
        argv = argv[1:]
    ref_path = argv[0] if argv else DEFAULT_REF
    out_dir = argv[1] if len(argv) > 1 else DEFAULT_OUT
    with open(ref_path) as f:
        ref = json.load(f)
    global AMD_3D
    with open(os.path.join(REPO, "tests", "data", "hw", "amd_3d_equations.json")) as f:
        AMD_3D = json.load(f)
    files = {"nvidia.json": nvidia(ref), "amd.json": amd(ref), "intel.json": intel(ref), "other.json": other(ref)}
    changed = []
    for name, obj in files.items():
        text = dump(obj)
        path = os.path.join(out_dir, name)
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            changed.append(name)
            if not check:
                with open(path, "w") as f:
                    f.write(text)
    if check and changed:
        fail("out of date: " + ", ".join(changed))
    print(("up to date" if check else "wrote") + ": " + ", ".join(files))


if __name__ == "__main__":
    main(sys.argv[1:])
