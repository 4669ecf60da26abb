"""swz.clear, swz.fill, swz.resolve, swz.encode_clear_value against numpy
reference implementations written from the public rules (Microsoft's Direct3D
"Data Conversion Rules"; the D3D12 ClearTextureSubresources / FillBuffers /
ResolveSubresourceRegion specification), the known vectors of
tests/data/conversion/d3d_clear_vectors.json, and Pillow's BCn decoder where
Pillow is installed. Guard bytes everywhere; failing calls leave buffers as
they were."""
from __future__ import annotations

import json
import math
import os
import random
import struct

import numpy as np
import pytest

import swz
from helpers import REPO, random_pattern

VECTORS = os.path.join(REPO, "tests", "data", "conversion", "d3d_clear_vectors.json")


def _f(v):
    return {"inf": math.inf, "-inf": -math.inf, "nan": math.nan, "-0": -0.0}.get(v, v) if isinstance(v, str) else float(v)


def test_known_vectors():
    doc = json.load(open(VECTORS, encoding="utf-8"))
    assert len(doc["vectors"]) >= 60
    for v in doc["vectors"]:
        value = [_f(x) for x in v["floats"]] if "floats" in v else [int(x) for x in v["uints"]]
        got = swz.encode_clear_value(v["format"], value, plane=v.get("plane", 0))
        assert got.hex() == v["bytes"], (v["format"], v["why"], v["source"])


# ---- numpy references of the conversion rules --------------------------------------------------

def ref_unorm(x, bits):
    x = np.nan_to_num(np.asarray(x, np.float32).astype(np.float64), nan=0.0)
    return np.floor(np.clip(x, 0, 1) * (2 ** bits - 1) + 0.5).astype(np.int64)


def ref_snorm(x, bits):
    x = np.nan_to_num(np.asarray(x, np.float32).astype(np.float64), nan=0.0)
    c = np.clip(x, -1, 1) * (2 ** (bits - 1) - 1)
    return np.where(c >= 0, np.floor(c + 0.5), np.ceil(c - 0.5)).astype(np.int64)


def ref_half_rtz(x):
    """float32 -> float16 rounding toward zero; past the range: +-65504; INF and NaN kept."""
    x = np.asarray(x, np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        h = x.astype(np.float16)  # nearest even
        too_far = np.abs(h.astype(np.float64)) > np.abs(x.astype(np.float64))
        h = np.where(too_far, np.nextafter(h, np.float16(0)), h)
        big = np.isfinite(x) & (np.abs(x) >= 65504)
        h = np.where(big, np.copysign(np.float16(65504), x).astype(np.float16), h)
    return h.view(np.uint16)


def ref_srgb8(x):
    x = np.clip(np.nan_to_num(np.asarray(x, np.float32).astype(np.float64), nan=0.0), 0, 1)
    s = np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)
    return np.floor(s * 255 + 0.5).astype(np.int64)


def test_conversions_against_numpy_references():
    rng = np.random.default_rng(5)
    xs = np.concatenate([rng.uniform(-1.5, 1.5, 400), rng.uniform(-1e5, 1e5, 100), [0.5, -1, 1, 0, 65520, 65504, 1e-8]]).astype(np.float32)
    for x in xs:
        x = float(x)
        b = swz.encode_clear_value("R8G8B8A8_UNORM", [x, x, x, x])
        assert b == bytes([ref_unorm(x, 8)] * 4), x
        b = swz.encode_clear_value("R16G16_SNORM", [x, -x])
        assert struct.unpack("<hh", b) == (ref_snorm(x, 16), ref_snorm(-x, 16)), x
        b = swz.encode_clear_value("R16_FLOAT", [x])
        assert struct.unpack("<H", b)[0] == int(ref_half_rtz(np.float32(x))), x
        b = swz.encode_clear_value("R8G8B8A8_UNORM_SRGB", [x, 0, 0, 0])
        assert b[0] == ref_srgb8(x), x


# ---- clears on random layouts: the box holds the encoded element, nothing else changes --------

def test_clear_random_layouts_against_deswizzle():
    rng = random.Random(17)
    formats = ["R8G8B8A8_UNORM", "R16G16B16A16_FLOAT", "R32_UINT", "B5G6R5_UNORM", "R10G10B10A2_UNORM", "BC1_UNORM", "BC7_UNORM",
               "R9G9B9E5_SHAREDEXP", "R8_SNORM"]
    done = 0
    for it in range(60):
        fmt = formats[it % len(formats)]
        info = swz.format_info(fmt)
        eb = info.element_bytes
        w, h = rng.randint(1, 60), rng.randint(1, 40)
        kind = rng.randrange(3)
        try:
            if kind == 0:
                L = swz.Layout.std64k(fmt, w, h, mips=2 if min(w, h) >= 2 else 1, array=2)
            elif kind == 1:
                L = swz.Layout.row_major(fmt, w, h, mips=2 if min(w, h) >= 2 else 1)
            else:
                p = random_pattern(rng, element_log2=eb.bit_length() - 1, max_block_bits=10, allow_stack=False, allow_z=False)
                L = swz.Layout.pattern(p, fmt, w, h)
        except ValueError:
            continue
        sub = rng.randrange(len(L.subresources()))
        s = L.subresource_layout(sub)
        bw = 4 if fmt.startswith("BC") else 1
        l = rng.randrange(0, (s.width + bw - 1) // bw) * bw
        t = rng.randrange(0, (s.height + bw - 1) // bw) * bw
        r = min(s.width, l + rng.randint(1, 3) * bw)
        btm = min(s.height, t + rng.randint(1, 3) * bw)
        value = [rng.randint(0, 2 ** 32 - 1) for _ in range(4)] if "UINT" in fmt else [rng.uniform(-0.2, 1.2) for _ in range(4)]
        before = np.frombuffer(rng.randbytes(L.size + 32), np.uint8).copy()
        before[L.size:] = 0xA5
        after = before.copy()
        swz.clear(after[:L.size], L, value, subresource=sub, box=(l, t, r, btm))
        assert (after[L.size:] == 0xA5).all()
        # Expected: the copy path writes the encoded element into the box of `before`.
        lin = swz.deswizzle(before[:L.size], L, subresource=sub, dtype=np.uint8)
        lin = lin.reshape(lin.shape[0], lin.shape[1], eb)
        elem = np.frombuffer(swz.encode_clear_value(fmt, value), np.uint8)
        lin[t // bw:(btm + bw - 1) // bw, l // bw:(r + bw - 1) // bw, :] = elem
        want = before[:L.size].copy()
        swz.swizzle(lin, L, subresource=sub, out=want)
        assert np.array_equal(after[:L.size], want), (fmt, L.name, sub, (l, t, r, btm))
        done += 1
    assert done >= 40


def test_clear_all_subresources_and_types():
    L = swz.Layout.std64k("R32G32_FLOAT", 8, 8, array=3)
    buf = np.zeros(L.size, np.uint8)
    swz.clear(buf, L, [1.5, -2.0], subresource=swz.ALL_SUBRESOURCES)
    for sub in range(3):
        a = swz.deswizzle(buf, L, subresource=sub, dtype=np.float32)
        assert (a[..., 0] == 1.5).all() and (a[..., 1] == -2.0).all()
    with pytest.raises(TypeError, match="Uints"):
        swz.clear(np.zeros(swz.Layout.std64k("R8_UINT", 4, 4).size, np.uint8), swz.Layout.std64k("R8_UINT", 4, 4), [0.5])


def test_clear_hostile_leaves_buffer():
    L = swz.Layout.std64k("BC3_UNORM", 16, 16)
    buf = np.arange(L.size, dtype=np.uint64).astype(np.uint8)
    orig = buf.copy()
    with pytest.raises(ValueError, match="4x4 region alignment of BC3_UNORM"):
        swz.clear(buf, L, [1, 1, 1, 1], box=(2, 0, 8, 8))
    with pytest.raises(IndexError):
        swz.clear(buf, L, [1, 1, 1, 1], box=(0, 0, 20, 8))
    with pytest.raises(IndexError):
        swz.clear(buf, L, [1, 1, 1, 1], subresource=3)
    N = swz.Layout.row_major("NV12", 8, 8)
    nbuf = np.zeros(N.size, np.uint8)
    with pytest.raises(ValueError, match="2x2 region alignment of NV12"):
        swz.clear(nbuf, N, [16, 128, 128], subresource=1, box=(0, 1, 4, 4))
    X = swz.Layout.std64k("R10G10B10_XR_BIAS_A2_UNORM", 8, 8)
    with pytest.raises(ValueError, match="R10G10B10_XR_BIAS_A2_UNORM"):
        swz.clear(np.zeros(X.size, np.uint8), X, [1, 1, 1])
    assert np.array_equal(buf, orig) and not nbuf.any()


def test_bc_blocks_decode_with_pillow():
    Image = pytest.importorskip("PIL.Image")
    rng = random.Random(3)
    edges = [[255, 0, 0, 0], [255, 255, 255, 255], [1, 0, 0, 0], [0, 255, 1, 254], [254, 255, 0, 1]]
    for k in range(45):
        c = edges[k] if k < len(edges) else [rng.randrange(256) for _ in range(4)]
        v = [x / 255 for x in c]
        blk = swz.encode_clear_value("BC7_UNORM", v)
        px = list(Image.frombytes("RGBA", (4, 4), blk, "bcn", 7).getdata())
        assert all(list(p) == c for p in px), (c, px[0])
        blk = swz.encode_clear_value("BC4_UNORM", v)
        px = list(Image.frombytes("L", (4, 4), blk, "bcn", 4).getdata())
        assert all(p == c[0] for p in px)
        blk = swz.encode_clear_value("BC3_UNORM", v)
        px = list(Image.frombytes("RGBA", (4, 4), blk, "bcn", 3).getdata())
        # BC6H (Pillow decodes to 8 bits: the half value clamped to [0, 1], times 255, truncated).
        for fmt, pf in (("BC6H_UF16", "BC6HU"), ("BC6H_SF16", "BC6HS")):
            blk = swz.encode_clear_value(fmt, v[:3])
            px6 = list(Image.frombytes("RGB", (4, 4), blk, "bcn", (6, pf)).getdata())
            h = ref_half_rtz(np.array(v[:3], np.float32)).view(np.float16).astype(np.float64)
            want6 = tuple(int(min(1.0, max(0.0, x)) * 255) for x in h)
            assert all(tuple(p) == want6 for p in px6), (fmt, v, px6[0], want6)
        r5, g6, b5 = ref_unorm(v[0], 5), ref_unorm(v[1], 6), ref_unorm(v[2], 5)
        want = ((r5 << 3) | (r5 >> 2), (g6 << 2) | (g6 >> 4), (b5 << 3) | (b5 >> 2), c[3])
        assert all(tuple(p) == want for p in px), (c, px[0], want)


# ---- fills ----------------------------------------------------------------------------------------

def test_fill_against_reference():
    rng = random.Random(23)
    for _ in range(300):
        p = rng.choice([1, 2, 4, 8, 12, 16])
        n = rng.randint(1, 200)
        align = 4 if p >= 4 else p
        off = rng.randrange(0, n + 1) // align * align
        reps = rng.randrange(0, 30)
        pattern = rng.randbytes(p)
        buf = bytearray(rng.randbytes(n))
        want = bytearray(buf)
        for k in range(reps):
            at = off + k * p
            if at + p > n:
                break
            want[at:at + p] = pattern
        swz.fill(buf, pattern, reps, offset=off)
        assert buf == want, (p, n, off, reps)


def test_fill_formatted_and_hostile():
    buf = bytearray(12)
    swz.fill(buf, [1.0, 0.5, 0.0, 0.25], 2, offset=4, format="R8G8B8A8_UNORM")
    assert bytes(buf) == bytes(4) + bytes([255, 128, 0, 64]) * 2
    guard = bytearray(b"\xa5" * 32)
    with pytest.raises(ValueError, match="not a multiple of 4"):
        swz.fill(guard, b"abcd", 2, offset=2)
    with pytest.raises(ValueError, match="raw_pattern_bytes = 3"):
        swz.fill(guard, b"abc", 2)
    with pytest.raises(IndexError, match="offset_B = 36"):
        swz.fill(guard, b"abcd", 1, offset=36)
    with pytest.raises(ValueError, match="R1_UNORM|unknown"):
        swz.fill(guard, [1.0], 1, format=66)
    assert guard == bytearray(b"\xa5" * 32)


# ---- resolves: numpy references over the sample axis -------------------------------------------

def samples_of(buf, L, w, h, n, eb):
    """(n, h, w, eb) bytes of every sample of every texel, gathered with swz.offsets."""
    y, x = np.mgrid[0:h, 0:w]
    out = np.empty((n, h, w, eb), np.uint8)
    for s in range(n):
        off = swz.offsets(L, x, y, 0, s).astype(np.int64)
        for k in range(eb):
            out[s, ..., k] = buf[off + k]
    return out


@pytest.mark.parametrize("fmt,n", [("R8G8B8A8_UNORM", 4), ("R8G8B8A8_UNORM_SRGB", 2), ("R32_FLOAT", 8), ("R16G16_FLOAT", 4),
                                   ("R16_SINT", 4), ("R8G8_SNORM", 2)])
def test_resolve_against_numpy(fmt, n):
    rng = np.random.default_rng(n)
    eb = swz.format_info(fmt).element_bytes
    sbits = " ".join(f"S{i}" for i in range(n.bit_length() - 1))
    xs = " ".join(f"X{i}" for i in range(eb.bit_length() - 1))
    S = swz.Layout.pattern(f"{xs} {sbits} Y0 X{eb.bit_length() - 1} Y1 X{eb.bit_length()}".strip(), fmt, 9, 7, samples=n)
    D = swz.Layout.std64k(fmt, 12, 10)
    if fmt == "R32_FLOAT":
        src = rng.uniform(-100, 100, S.size // 4).astype(np.float32).view(np.uint8)
    elif "FLOAT" in fmt:
        src = rng.uniform(-10, 10, S.size // 2).astype(np.float16).view(np.uint8)
    else:
        src = rng.integers(0, 256, S.size, dtype=np.uint8)
    modes = ["min", "max"] if "SINT" in fmt else ["average", "min", "max"]
    smp = samples_of(src, S, 9, 7, n, eb)
    for mode in modes:
        dst = np.full(D.size, 0xA5, np.uint8)
        swz.resolve(src, S, dst, D, mode=mode, rect=(1, 2, 8, 7), dst_x=3, dst_y=4)
        got = swz.deswizzle(dst, D, dtype=np.uint8).reshape(10, 12, eb)
        region = smp[:, 2:7, 1:8, :]
        if fmt in ("R32_FLOAT", "R16G16_FLOAT"):
            dt = np.float32 if fmt == "R32_FLOAT" else np.float16
            vals = np.ascontiguousarray(region).view(dt).astype(np.float64)
            if mode == "average":
                acc = np.zeros(vals.shape[1:])
                for s in range(n):
                    acc = acc + vals[s]
                mean = (acc / n).astype(np.float32)
                want = mean.view(np.uint8) if dt == np.float32 else ref_half_rtz(mean).view(np.uint8)
            else:
                red = vals.min(axis=0) if mode == "min" else vals.max(axis=0)
                want = red.astype(dt).view(np.uint8)
        elif fmt == "R16_SINT":
            vals = np.ascontiguousarray(region).view(np.int16)
            want = (vals.min(axis=0) if mode == "min" else vals.max(axis=0)).view(np.uint8)
        elif fmt == "R8G8_SNORM":
            vals = np.ascontiguousarray(region).view(np.int8).astype(np.int64)
            if mode == "average":
                m = np.maximum(vals, -127)
                mean = m.sum(axis=0) / n  # exact for n = 2: halves
                want = np.where(mean >= 0, np.floor(mean + 0.5), np.ceil(mean - 0.5)).astype(np.int8).view(np.uint8)
            else:
                f = np.maximum(vals, -127)  # -128 and -127 both mean -1.0: the first sample with the extreme value wins
                idx = f.argmin(axis=0) if mode == "min" else f.argmax(axis=0)
                want = np.take_along_axis(vals, idx[None], axis=0)[0].astype(np.int8).view(np.uint8)
        elif fmt == "R8G8B8A8_UNORM":
            vals = region.astype(np.int64)
            if mode == "average":
                want = ((2 * vals.sum(axis=0) + n) // (2 * n)).astype(np.uint8)
            else:
                want = (vals.min(axis=0) if mode == "min" else vals.max(axis=0)).astype(np.uint8)
        else:  # sRGB: RGB averaged in linear light, alpha linearly
            vals = region.astype(np.float64) / 255
            lin = np.where(vals <= 0.04045, vals / 12.92, ((vals + 0.055) / 1.055) ** 2.4)
            if mode == "average":
                mean = lin.mean(axis=0)
                want = ref_srgb8(mean.astype(np.float32)).astype(np.uint8)
                ints = region.astype(np.int64)
                want[..., 3] = ((2 * ints[..., 3].sum(axis=0) + n) // (2 * n)).astype(np.uint8)
            else:
                ints = region
                want = (ints.min(axis=0) if mode == "min" else ints.max(axis=0)).astype(np.uint8)
        want = np.asarray(want).reshape(5, 7, eb)
        assert np.array_equal(got[4:9, 3:10], want), (fmt, mode)
        outside = np.ones((10, 12), bool)
        outside[4:9, 3:10] = False
        assert (got[outside] == 0xA5).all()


def test_resolve_hostile():
    S = swz.Layout.pattern("X0 X1 S0 S1 X2 Y0 X3 Y1", "R8G8B8A8_UINT", 4, 4, samples=4)
    D = swz.Layout.std64k("R8G8B8A8_UINT", 4, 4)
    src = np.zeros(S.size, np.uint8)
    dst = np.full(D.size, 7, np.uint8)
    with pytest.raises(ValueError, match="UINT/SINT"):
        swz.resolve(src, S, dst, D)
    with pytest.raises(ValueError, match="source samples = 1"):
        swz.resolve(dst, D, dst.copy(), D, mode="min")
    with pytest.raises(IndexError, match="outside destination"):
        swz.resolve(src, S, dst, D, mode="max", dst_x=1)
    with pytest.raises(ValueError, match="mode = 'median'"):
        swz.resolve(src, S, dst, D, mode="median")
    assert (dst == 7).all()
