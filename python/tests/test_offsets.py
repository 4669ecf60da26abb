"""swz.offsets / swz.locate: agreement with the C++ reference and with a
pure-Python SimpleSwizzle written from the spec; broadcasting; errors."""
import json
import random

import numpy as np
import pytest

import swz
from helpers import FORMAT_FOR_BYTES, decode_ddi, random_pattern, simple_swizzle


def sample_coords(rng, s, samples, n):
    """Up to n element coordinates of subresource s (all when few), as int arrays."""
    total = s.width_el * s.height_el * s.depth * samples
    if total <= n:
        idx = np.arange(total)
    else:
        idx = np.array(sorted(rng.sample(range(total), n)))
    x = idx % s.width_el
    y = (idx // s.width_el) % s.height_el
    z = (idx // (s.width_el * s.height_el)) % s.depth
    smp = idx // (s.width_el * s.height_el * s.depth)
    return x, y, z, smp


def check_layout_against_oracles(rng, L, n=300):
    samples = L.samples
    for i in range(L.subresource_count):
        s = L.subresource_layout(i)
        if s.packed:
            continue
        x, y, z, smp = sample_coords(rng, s, samples, n)
        got = swz.offsets(L, x, y, z, smp, subresource=i)
        assert got.dtype == np.uint64 and got.shape == x.shape
        # Both C++ paths (per-axis tables, the plan's byte tables) agree.
        args = [np.asarray(v, np.int64) for v in (x, y, z, smp)]
        for method in (1, 2):
            assert np.array_equal(swz._swz._offsets(L, i, *args, method=method), got)
        ddi = decode_ddi(s.pattern.to_ddi_bytes())
        eb = s.element_bytes
        for k in range(len(x)):
            xb = int(x[k]) * eb
            ref = swz._swz.reference_offset(s.pattern, xb, int(y[k]), int(z[k]), int(smp[k]), s.row_pitch, s.depth_pitch_B,
                                            s.pre_swizzle, s.stack_rows)
            # The spec's DepthPitch: rows for stacked-depth patterns, else bytes.
            spec_dp = s.stack_rows if s.stack_depth else s.depth_pitch_B
            spec = simple_swizzle(ddi, (xb, int(y[k]), int(z[k]), int(smp[k])), s.pre_swizzle, s.row_pitch, spec_dp)
            assert ref == spec, (s.pattern, i, k)
            assert int(got[k]) == s.offset + ref, (s.pattern, i, x[k], y[k], z[k], smp[k])


def test_random_patterns_agree_with_reference_and_spec():
    rng = random.Random(11)
    done = fourth = 0
    while done < 60:
        k = rng.randint(0, 4)
        p = random_pattern(rng, k, max_block_bits=rng.choice([6, 10, 16]), allow_samples=done % 4 == 0)
        has_fourth = any(e.valid for e in decode_ddi(p.to_ddi_bytes()).xors[3])
        eb = 1 << k
        samples = p.block_extent[3]
        d = None if samples > 1 else rng.choice([None, None, rng.randint(1, 9)])
        w, h = rng.randint(1, 300), rng.randint(1, 200)
        try:
            L = swz.Layout.pattern(p, FORMAT_FOR_BYTES[eb], w, h, d, samples=samples,
                                   mips=rng.randint(1, 3) if samples == 1 else 1)
        except ValueError:
            continue
        check_layout_against_oracles(rng, L, 150)
        done += 1
        fourth += has_fourth
    # The fourth XOR term of an address bit is exercised, not just parsed.
    assert fourth >= 30, fourth


def test_explicit_pitches_and_stacking():
    rng = random.Random(12)
    p = swz.Pattern("X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2 X5 Y3 stack")
    L = swz.Layout.pattern(p, "R8G8B8A8_UNORM", 50, 20, 6, row_pitch=4 * 1024, depth_pitch=24)
    s = L.subresource_layout(0)
    assert s.stack_depth and s.stack_rows == 24 and s.depth_pitch_B == 0
    check_layout_against_oracles(rng, L, 2000)


def test_explicit_depth_units_and_the_one_number_form():
    stacked = swz.Pattern("X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2 X5 Y3 stack")
    plain = swz.Pattern("X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2 X5 Y3")
    # stack_rows= (rows) and the older depth_pitch= give the same stacked layout.
    a = swz.Layout.pattern(stacked, "R8G8B8A8_UNORM", 50, 20, 6, stack_rows=24).subresource_layout(0)
    b = swz.Layout.pattern(stacked, "R8G8B8A8_UNORM", 50, 20, 6, depth_pitch=24).subresource_layout(0)
    assert (a.stack_rows, a.depth_pitch_B) == (b.stack_rows, b.depth_pitch_B) == (24, 0)
    # depth_pitch_B= (bytes) and depth_pitch= for a pattern that does not stack.
    for L in (swz.Layout.pattern(plain, "R8G8B8A8_UNORM", 50, 20, 6, depth_pitch_B=1 << 16),
              swz.Layout.pattern(plain, "R8G8B8A8_UNORM", 50, 20, 6, depth_pitch=1 << 16),
              swz.Layout.from_name("pattern:" + plain.to_text(), "R8G8B8A8_UNORM", 50, 20, 6, depth_pitch_B=1 << 16)):
        s = L.subresource_layout(0)
        assert (s.depth_pitch_B, s.stack_rows) == (1 << 16, 0)
    assert swz.Layout.row_major("R8_UNORM", 16, 4, 3, depth_pitch_B=1024).subresource_layout(0).depth_pitch_B == 1024
    assert swz.Layout.from_name("pattern:" + stacked.to_text(), "R8G8B8A8_UNORM", 50, 20, 6,
                                stack_rows=24).subresource_layout(0).stack_rows == 24
    # Each explicit form is refused where its unit does not apply, and the two forms do not mix.
    with pytest.raises(ValueError, match="depth_pitch_B = 65536: the pattern stacks depth slices"):
        swz.Layout.pattern(stacked, "R8G8B8A8_UNORM", 50, 20, 6, depth_pitch_B=1 << 16)
    with pytest.raises(ValueError, match="stack_rows = 24: the layout does not stack depth slices"):
        swz.Layout.pattern(plain, "R8G8B8A8_UNORM", 50, 20, 6, stack_rows=24)
    with pytest.raises(ValueError, match="not both"):
        swz.Layout.pattern(stacked, "R8G8B8A8_UNORM", 50, 20, 6, depth_pitch=24, stack_rows=24)


def test_standard_layouts_agree():
    rng = random.Random(13)
    for L in (swz.Layout.std64k("R8G8B8A8_UNORM", 300, 200, mips=3, array=2),
              swz.Layout.std64k("BC1_UNORM", 260, 130, mips=2),
              swz.Layout.std64k("R16G16B16A16_FLOAT", 40, 30, 20, mips=2),
              swz.Layout.std4k("R8_UNORM", 200, 100, 3),
              swz.Layout.row_major("R32G32B32A32_FLOAT", 33, 7, mips=2)):
        check_layout_against_oracles(rng, L, 400)


def test_device_layout_with_pre_swizzle_offsets():
    doc = {
        "format": "R8G8B8A8_UNORM", "width": 40, "height": 24, "mip_levels": 2,
        "patterns": ["X0 X1 X2 X3 Y0 Y1 X4^Y3 Y2 X5 Y3 post8=X6"],
        "subresources": [{"offset": 0, "row_byte_pre_swizzle": 16, "column_pre_swizzle": 3},
                         {"offset": 65536, "row_stride": 4096, "column_pre_swizzle": 5}],
    }
    L = swz.Layout.from_resource_layout_json(json.dumps(doc))
    assert L.subresource_layout(0).pre_swizzle == (16, 3, 0)
    check_layout_against_oracles(random.Random(14), L, 2000)


def test_broadcasting_and_scalars():
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 256, 256)
    x = np.arange(256)
    y = np.arange(256)[:, None]
    grid = swz.offsets(L, x, y)
    assert grid.shape == (256, 256)
    assert sorted(set(grid.ravel().tolist())) == list(range(0, 256 * 256 * 4, 4))  # a bijection onto the elements
    for yy in (0, 17, 255):
        for xx in (0, 5, 200):
            v = swz.offsets(L, xx, yy)
            assert isinstance(v, np.uint64) and v == grid[yy, xx]
    # Different integer dtypes and strided views give the same answer.
    assert np.array_equal(swz.offsets(L, x.astype(np.uint8), y.astype(np.int16)), grid)
    # Each integer type is read in place (no int64 copy), with the same answers and range checks.
    for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64):
        if np.iinfo(dt).max >= 255:
            assert np.array_equal(swz.offsets(L, x.astype(dt), y.astype(dt)), grid), dt
    assert np.array_equal(swz.offsets(L, x.astype(">u4"), y.astype(">i8")), grid)  # byte-swapped: converted
    with pytest.raises(IndexError, match="x = 300"):
        swz.offsets(L, np.array([0, 300], np.uint16), 0)
    with pytest.raises(IndexError, match="y = -3"):
        swz.offsets(L, 0, np.array([-3], np.int8))
    assert np.array_equal(swz.offsets(L, x[::-1], y)[:, ::-1], grid)
    assert np.array_equal(swz.offsets(L, np.broadcast_to(x, (256, 256)), np.broadcast_to(y, (256, 256))), grid)
    assert swz.offsets(L, np.zeros((0, 3), int), 0).shape == (0, 3)
    assert swz.offsets(L, [1, 2, 3], [0]).tolist() == [4, 8, 12]


def test_offsets_errors():
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 100, 50, mips=2)
    with pytest.raises(IndexError, match="x = 100"):
        swz.offsets(L, [0, 100], 0)
    with pytest.raises(IndexError, match="y = -1"):
        swz.offsets(L, 0, -1)
    with pytest.raises(IndexError, match="z"):
        swz.offsets(L, 0, 0, z=1)
    with pytest.raises(IndexError, match="sample"):
        swz.offsets(L, 0, 0, sample=1)
    with pytest.raises(IndexError, match="x = 50"):
        swz.offsets(L, 50, 0, subresource=1)
    with pytest.raises(IndexError, match="subresource"):
        swz.offsets(L, 0, 0, subresource=2)
    with pytest.raises(IndexError):
        swz.offsets(L, np.uint64(2**64 - 1), 0)
    with pytest.raises(TypeError):
        swz.offsets(L, 1.5, 0)
    with pytest.raises(TypeError):
        swz.offsets(L, np.array([True]), 0)
    with pytest.raises(ValueError):
        swz.offsets(L, np.arange(3), np.arange(4))  # shapes do not broadcast
    P = swz.Layout.std64k("R8G8B8A8_UNORM", 512, 512, mips="full", packed_mips=(3, 7, 1))
    with pytest.raises(ValueError, match="packed"):
        swz.offsets(P, 0, 0, subresource=4)


def test_locate_inverts_offsets():
    rng = random.Random(15)
    layouts = [swz.Layout.std64k("R8G8B8A8_UNORM", 300, 200, mips=2, array=2),
               swz.Layout.std64k("BC7_UNORM", 100, 60),
               swz.Layout.std4k("R8_UNORM", 40, 30, 9)]
    for _ in range(10):
        p = random_pattern(rng, 2, max_block_bits=12)
        try:
            layouts.append(swz.Layout.pattern(p, "R8G8B8A8_UNORM", rng.randint(1, 90), rng.randint(1, 60),
                                              rng.choice([None, 3])))
        except ValueError:
            pass
    for L in layouts:
        for i in range(L.subresource_count):
            s = L.subresource_layout(i)
            x, y, z, _ = sample_coords(rng, s, 1, 200)
            off = swz.offsets(L, x, y, z, subresource=i)
            for byte in range(s.element_bytes):
                r = swz.locate(L, off + byte)
                assert isinstance(r, np.recarray) and r.shape == off.shape
                assert not r.padding.any() and not r.packed.any()
                assert (r.subresource == i).all() and (r.byte == byte).all()
                assert np.array_equal(r.x, x) and np.array_equal(r.y, y) and np.array_equal(r.z, z)


def test_locate_padding_and_errors():
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 100, 50)  # one 128x128 tile, mostly padding
    used = set(swz.offsets(L, np.arange(100), np.arange(50)[:, None]).ravel().tolist())
    pad = next(o for o in range(0, L.size, 4) if o not in used)
    r = swz.locate(L, pad)
    assert isinstance(r, np.record) and r.padding and r.subresource == 0
    everything = swz.locate(L, np.arange(L.size))
    assert (~everything.padding).sum() == 100 * 50 * 4
    assert everything.dtype == swz.LOCATION_DTYPE
    with pytest.raises(IndexError):
        swz.locate(L, L.size)
    with pytest.raises(IndexError):
        swz.locate(L, [0, -1])
    # A negative offset is named even after one past the end (negatives were checked first).
    with pytest.raises(IndexError, match="offset = -3 is negative"):
        swz.locate(L, [0, L.size + 5, -3])
    with pytest.raises(TypeError):
        swz.locate(L, 0.5)


def test_locate_packed_mips():
    P = swz.Layout.std64k("R8G8B8A8_UNORM", 512, 512, mips="full", packed_mips=(3, 7, 1))
    s = P.subresource_layout(3)
    r = swz.locate(P, s.offset)
    assert r.packed and r.subresource == 3


def test_locate_takes_zero_dimensional_uint64():
    # np.uint64 scalars and 0-d uint64 arrays (what numpy hands out) locate like ints.
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 37, 21)
    want = swz.locate(L, 5)
    for v in (np.uint64(5), np.array(5, np.uint64)):
        got = swz.locate(L, v)
        assert (got.x, got.y, got.byte, got.padding) == (want.x, want.y, want.byte, want.padding)


def test_locate_and_offsets_name_values_past_64_bits():
    # An offset above 2^63 - 1 is not clamped to 9223372036854775807, and a
    # Python int past 64 bits is not a TypeError "not dtype object": both
    # errors name the value the caller gave.
    L = swz.Layout.from_name("amd-gfx9-sw64k-s", "R8G8B8A8_UNORM", 3, 5, 7, mips="full")
    for big in (2**63, 2**64 - 1):
        with pytest.raises(IndexError, match=f"offset = {big} "):
            swz.locate(L, big)
        with pytest.raises(IndexError, match=f"offset = {big} "):
            swz.locate(L, np.array([0, big], dtype=np.uint64))
        with pytest.raises(IndexError, match=f"x = {big} "):
            swz.offsets(L, np.uint64(big), 0)
    for huge in (2**70, -2**70):
        with pytest.raises(IndexError, match=f"offset = {huge} "):
            swz.locate(L, huge)
        with pytest.raises(IndexError, match=f"offset = {huge} "):
            swz.locate(L, [0, huge])
        with pytest.raises(IndexError, match=f"y = {huge} "):
            swz.offsets(L, 0, huge)
    with pytest.raises(TypeError):
        swz.locate(L, [0, "a"])
    with pytest.raises(TypeError):
        swz.locate(L, [0, 1.5])
    assert swz.locate(L, [0x8000]).subresource.tolist() == [0]
