"""The batched copy engine from Python: swz.copy_regions, swz.copy_tiles,
swz.copy_buffer_to_texture / copy_texture_to_buffer (placed footprints) and
swz.copy_resources.

Oracles: swz.offsets (the address map, not the copy kernels) with the
D3D12_PLACED_SUBRESOURCE_FOOTPRINT formula written here in numpy; deswizzle
with one layout then swizzle with the other; guard bytes after every buffer;
failing calls leave the buffers as they were."""
import random

import numpy as np
import pytest

import swz

GUARD = 256


def rand_bytes(rng, n):
    return rng.integers(0, 256, size=n, dtype=np.uint8)


def element_offsets(layout, sub):
    """Resource offsets of every byte of every element of a subresource, shape (D, H, W, eb)."""
    s = layout.subresource_layout(sub)
    z, y, x = np.meshgrid(np.arange(s.depth), np.arange(s.height_el), np.arange(s.width_el), indexing="ij")
    off = swz.offsets(layout, x, y, z, subresource=sub).astype(np.int64)
    return off[..., None] + np.arange(s.element_bytes)


def footprint_offsets(offset, row_pitch, rows, shape, eb):
    """Buffer offsets of the bytes of a (D, H, W) element box at the footprint's origin."""
    d, h, w = shape
    z, y, x = np.meshgrid(np.arange(d), np.arange(h), np.arange(w), indexing="ij")
    base = offset + (z * rows + y) * row_pitch + x * eb
    return base[..., None] + np.arange(eb)


CASES = [
    ("std64k", "R8G8B8A8_UNORM", 300, 200, None, 3),
    ("nv-block-linear", "R16G16B16A16_FLOAT", 70, 45, None, 2),
    ("std4k", "BC7_UNORM", 90, 66, None, 3),
    ("std64k", "R32_FLOAT", 40, 30, 5, 2),
    ("amd-gfx10-sw64k-s", "R8_UNORM", 130, 77, None, 1),
]


@pytest.mark.parametrize("name,fmt,w,h,d,mips", CASES)
def test_footprints_both_directions_match_offsets(name, fmt, w, h, d, mips):
    rng = np.random.default_rng(len(name) * 7 + w)
    L = swz.Layout.from_name(name, fmt, w, h, d, mips=mips)
    fps = L.footprints()
    upload = rand_bytes(rng, L.footprints_size() + GUARD)
    res = rand_bytes(rng, L.size + GUARD)
    res0 = res.copy()
    for i in range(L.subresource_count):
        swz.copy_buffer_to_texture(res, L, upload, fps[i], subresource=i)
    want = res0.copy()
    for i in range(L.subresource_count):
        s = L.subresource_layout(i)
        f = fps[i]
        src = footprint_offsets(f.offset, f.row_pitch, f.rows, (s.depth, s.height_el, s.width_el), s.element_bytes)
        want[element_offsets(L, i)] = upload[src]
    assert np.array_equal(res, want)
    # Back: the rows come back, the row padding and guard stay.
    down = rand_bytes(rng, upload.size)
    down0 = down.copy()
    for i in range(L.subresource_count):
        assert swz.copy_texture_to_buffer(down, fps[i], res, L, subresource=i) is down
    want = down0.copy()
    for i in range(L.subresource_count):
        s = L.subresource_layout(i)
        f = fps[i]
        idx = footprint_offsets(f.offset, f.row_pitch, f.rows, (s.depth, s.height_el, s.width_el), s.element_bytes)
        want[idx] = upload[idx]
    assert np.array_equal(down, want)


def test_footprint_regions_and_dict_footprints():
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 128, 64)
    rng = np.random.default_rng(1)
    buf = rand_bytes(rng, 1024 + 512 * 64 + GUARD)
    res = np.zeros(L.size, np.uint8)
    fp = {"offset": 1024, "format": "R8G8B8A8_UNORM", "width": 64, "height": 32, "row_pitch": 512}
    swz.copy_buffer_to_texture(res, L, buf, fp, regions=[{"box": (8, 4, 24, 12), "dst": (100, 50)}])
    got = swz.deswizzle(res, L, box=(100, 50, 116, 58))
    want = np.stack([buf[1024 + (4 + y) * 512 + 8 * 4: 1024 + (4 + y) * 512 + 24 * 4] for y in range(8)]).reshape(8, 16, 4)
    assert np.array_equal(got, want)
    outside = np.ones((64, 128), bool)
    outside[50:58, 100:116] = False
    assert not swz.deswizzle(res, L)[outside].any()


@pytest.mark.parametrize("change,needle", [
    ({"offset": 1000}, "footprint.offset_B = 1000"),
    ({"row_pitch": 500}, "footprint.row_pitch_B = 500"),
    ({"format": "R16G16B16A16_UNORM", "row_pitch": 512}, "footprint.format = R16G16B16A16_UNORM"),
    ({"height": 200}, "buffer is"),
])
def test_hostile_footprints_raise_and_write_nothing(change, needle):
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64)
    rng = np.random.default_rng(2)
    buf = rand_bytes(rng, 1024 + 256 * 64)
    res = rand_bytes(rng, L.size)
    buf0, res0 = buf.copy(), res.copy()
    fp = {"offset": 1024, "format": "R8G8B8A8_UNORM", "width": 64, "height": 64, "row_pitch": 256}
    fp.update(change)
    with pytest.raises(ValueError, match=needle.replace("(", r"\(")):
        swz.copy_buffer_to_texture(res, L, buf, fp)
    with pytest.raises(ValueError, match=needle.replace("(", r"\(")):
        swz.copy_texture_to_buffer(buf, fp, res, L)
    assert np.array_equal(buf, buf0) and np.array_equal(res, res0)


def test_footprint_argument_errors():
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64)
    res = np.zeros(L.size, np.uint8)
    buf = np.zeros(256 * 64, np.uint8)
    fp = {"offset": 0, "format": "R8G8B8A8_UNORM", "width": 64, "height": 64, "row_pitch": 256}
    with pytest.raises(ValueError, match="unknown key 'pitch'"):
        swz.copy_buffer_to_texture(res, L, buf, dict(fp, pitch=3))
    with pytest.raises(ValueError, match="overlap"):
        swz.copy_buffer_to_texture(res, L, buf, fp, regions=[{"box": (0, 0, 16, 16)}, {"box": (0, 0, 16, 16), "dst": (8, 8)}])
    with pytest.raises(IndexError):
        swz.copy_buffer_to_texture(res, L, buf, fp, regions=[{"box": (0, 0, 16, 16), "dst": (56, 0)}])
    with pytest.raises(ValueError, match="share memory"):
        swz.copy_buffer_to_texture(res, L, res, fp)
    with pytest.raises(ValueError, match="read-only"):
        swz.copy_buffer_to_texture(bytes(L.size), L, buf, fp)
    with pytest.raises(TypeError):
        swz.copy_buffer_to_texture(res, L, buf, [0, 1, 2])


def random_layout(rng, fmt, w, h, d, mips, array):
    names = ["row-major", "std64k", "std4k", "nv-block-linear", "amd-gfx10-sw64k-s"]
    for _ in range(20):
        try:
            return swz.Layout.from_name(rng.choice(names), fmt, w, h, d, mips=mips, array=array)
        except ValueError:
            continue
    return swz.Layout.row_major(fmt, w, h, d, mips=mips, array=array)


def test_copy_resources_equals_deswizzle_then_swizzle():
    rng = random.Random(5)
    nrng = np.random.default_rng(5)
    for _ in range(25):
        fmt = rng.choice(["R8_UNORM", "R8G8B8A8_UNORM", "R32G32B32A32_FLOAT", "BC1_UNORM", "R16G16_UINT"])
        w, h = rng.randint(1, 150), rng.randint(1, 90)
        d = rng.choice([None, None, rng.randint(1, 6)])
        array = 1 if d else rng.randint(1, 3)
        mips = rng.randint(1, 3) if min(w, h) >= 4 else 1
        A = random_layout(rng, fmt, w, h, d, mips, array)
        B = random_layout(rng, fmt, w, h, d, mips, array)
        src = rand_bytes(nrng, A.size)
        dst = rand_bytes(nrng, B.size + GUARD)
        want = dst.copy()
        assert swz.copy_resources(dst, B, src, A) is dst
        for i in range(A.subresource_count):
            swz.swizzle(swz.deswizzle(src, A, i), B, i, out=want)
        assert np.array_equal(dst, want), (A.name, B.name, fmt)
    out = swz.copy_resources(None, B, src, A)
    assert out.dtype == np.uint8 and out.size == B.size


def test_copy_resources_mismatch_is_named():
    A = swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64, mips=2)
    B = swz.Layout.row_major("R8G8B8A8_UNORM", 64, 64, mips=3)
    src = np.zeros(A.size, np.uint8)
    dst = np.full(B.size, 7, np.uint8)
    with pytest.raises(ValueError, match="mip_levels differs: source 2, destination 3"):
        swz.copy_resources(dst, B, src, A)
    assert (dst == 7).all()
    with pytest.raises(ValueError, match="share memory"):
        swz.copy_resources(src, A, src, A)


def test_copy_regions_between_layouts():
    nrng = np.random.default_rng(9)
    A = swz.Layout.std64k("R8G8B8A8_UNORM", 200, 100)
    B = swz.Layout.from_name("nv-block-linear", "R8G8B8A8_UNORM", 200, 100)
    img = nrng.integers(0, 256, size=(100, 200, 4), dtype=np.uint8)
    src = swz.swizzle(img, A)
    dst = np.zeros(B.size, np.uint8)
    regions = [{"box": (0, 0, 50, 40), "dst": (10, 20)}, {"box": (100, 50, 200, 100), "dst": (100, 0, 0)}]
    assert swz.copy_regions(dst, B, src, A, regions) is dst
    got = swz.deswizzle(dst, B)
    assert np.array_equal(got[20:60, 10:60], img[0:40, 0:50])
    assert np.array_equal(got[0:50, 100:200], img[50:100, 100:200])
    assert not got[60:, :10].any()
    # The same buffer and layout on both sides: allowed when the regions do not overlap their sources.
    swz.copy_regions(src, A, src, A, [{"box": (0, 0, 16, 16), "dst": (32, 32)}])
    assert np.array_equal(swz.deswizzle(src, A, box=(32, 32, 48, 48)), img[0:16, 0:16])
    with pytest.raises(ValueError, match="overlap"):
        swz.copy_regions(src, A, src, A, [{"box": (0, 0, 16, 16), "dst": (8, 8)}])
    big = np.zeros(B.size + 16, np.uint8)  # source and destination 16 bytes apart in one allocation
    with pytest.raises(ValueError, match="share memory"):
        swz.copy_regions(big[16:], B, big[:B.size], B, [{"box": (0, 0, 16, 16)}])
    assert not big.any()
    with pytest.raises(ValueError, match="unknown key 'dest'"):
        swz.copy_regions(dst, B, src, A, [{"dest": (0, 0)}])
    with pytest.raises(IndexError):
        swz.copy_regions(dst, B, src, A, [{"box": (0, 0, 50, 40), "dst": (190, 0)}])


def test_copy_tiles_linear_within_tile():
    nrng = np.random.default_rng(3)
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 300, 200)
    img = nrng.integers(0, 256, size=(200, 300, 4), dtype=np.uint8)
    res = swz.swizzle(img, L)
    buf = np.zeros(2 * 65536 + 512, np.uint8)
    assert swz.copy_tiles(res, L, buf, start=(1, 0), num_tiles=2, buffer_offset=512) is buf
    # Tile (1, 0): texels x 128..255, rows 0..127, rows of 512 bytes; tile (2, 0) is partly outside.
    t1 = buf[512: 512 + 65536].reshape(128, 128, 4)
    assert np.array_equal(t1, img[0:128, 128:256])
    t2 = buf[512 + 65536:].reshape(128, 128, 4)
    assert np.array_equal(t2[:, :44], img[0:128, 256:300])
    # And back into a fresh resource.
    res2 = np.zeros(L.size, np.uint8)
    swz.copy_tiles(res2, L, buf, start=(1, 0), box=(2, 1), buffer_offset=512, direction="to_resource")
    back = swz.deswizzle(res2, L)
    assert np.array_equal(back[0:128, 128:300], img[0:128, 128:300])
    assert not back[128:].any()
    with pytest.raises(IndexError):
        swz.copy_tiles(res, L, buf, start=(3, 0))
    with pytest.raises(ValueError, match="direction"):
        swz.copy_tiles(res, L, buf, direction="sideways")
    with pytest.raises(ValueError, match="share memory"):
        swz.copy_tiles(res, L, res[10:])
