"""swz.swizzle / swz.deswizzle: round trips, agreement with swz.offsets,
boxes, buffers, out=, threads, and error cases (never wrong bytes)."""
import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import swz
from helpers import FORMAT_FOR_BYTES, load_example_photo, random_pattern


def random_image(rng, shape, dtype):
    dtype = np.dtype(dtype)
    raw = rng.integers(0, 256, size=int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(shape)  # any bit pattern, even NaNs: compared as bytes


def same_bytes(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def check_placement(buf, layout, sub, img):
    """Every element's bytes sit where swz.offsets says (independent of the copy kernels)."""
    s = layout.subresource_layout(sub)
    eb = s.element_bytes
    raw = np.ascontiguousarray(img).view(np.uint8).reshape(img.shape[:-1] + (eb,)) if img.ndim else img
    if layout.dimension == 3:
        z, y, x = np.meshgrid(np.arange(s.depth), np.arange(s.height_el), np.arange(s.width_el), indexing="ij")
    else:
        y, x = np.meshgrid(np.arange(s.height_el), np.arange(s.width_el), indexing="ij")
        z = 0
    off = swz.offsets(layout, x, y, z, subresource=sub)
    got = np.asarray(buf, dtype=np.uint8).reshape(-1)[off[..., None].astype(np.int64) + np.arange(eb)]
    assert np.array_equal(got, raw)


LAYOUTS = [
    ("std64k", "R8G8B8A8_UNORM", np.uint8, (300, 200, None)),
    ("std64k", "R32G32B32A32_FLOAT", np.float32, (70, 45, None)),
    ("std64k", "R16G16B16A16_FLOAT", np.float16, (129, 33, None)),
    ("std64k", "R8_UNORM", np.uint8, (257, 100, None)),
    ("std64k", "R8G8_UNORM", np.uint8, (33, 65, None)),
    ("std64k", "BC1_UNORM", np.uint8, (130, 66, None)),
    ("std64k", "BC7_UNORM", np.uint8, (64, 36, None)),
    ("std64k", "R8G8B8A8_UNORM", np.uint8, (40, 24, 10)),
    ("std4k", "R8G8B8A8_UNORM", np.uint8, (100, 50, None)),
    ("std4k", "R8_UNORM", np.uint8, (33, 17, 5)),  # confirmed 4KB 3D bricks: 1- and 8-byte elements
    ("std4k", "R32_FLOAT", np.float32, (33, 17, None)),
    ("row-major", "R8G8B8A8_UNORM", np.uint8, (300, 7, None)),
    ("row-major", "R16G16_UINT", np.uint16, (31, 9, 3)),
    ("row-major", "R32G32B32_FLOAT", np.float32, (31, 9, None)),  # 12-byte elements: row-major only
]


@pytest.mark.parametrize("name, fmt, dtype, size", LAYOUTS)
def test_round_trip_all_subresources(name, fmt, dtype, size):
    rng = np.random.default_rng(1)
    w, h, d = size
    L = swz.Layout.from_name(name, fmt, w, h, d, mips=3 if min(w, h) >= 8 else 1, array=1 if d else 2)
    buf = np.zeros(L.size, np.uint8)
    imgs = []
    for i in range(L.subresource_count):
        s = L.subresource_layout(i)
        img = random_image(rng, s.shape, dtype)
        assert img.dtype == L.dtype or name == "row-major"
        r = swz.swizzle(img, L, i, out=buf)
        assert r is buf
        imgs.append(img)
    for i, img in enumerate(imgs):
        back = swz.deswizzle(buf, L, i)
        assert same_bytes(back, img), f"subresource {i}"
        check_placement(buf, L, i, img)


def test_round_trip_random_patterns():
    rng = random.Random(7)
    nrng = np.random.default_rng(7)
    done = 0
    while done < 40:
        k = rng.randint(0, 4)
        p = random_pattern(rng, k, max_block_bits=12)
        eb = 1 << k
        d = rng.choice([None, None, rng.randint(1, 5)])
        try:
            L = swz.Layout.pattern(p, FORMAT_FOR_BYTES[eb], rng.randint(1, 70), rng.randint(1, 40), d,
                                   mips=rng.randint(1, 2) if d is None else 1)
        except ValueError:
            continue  # e.g. sizes too small for two mips
        buf = np.zeros(L.size, np.uint8)
        imgs = [random_image(nrng, L.subresource_layout(i).shape, L.dtype) for i in range(L.subresource_count)]
        for i, img in enumerate(imgs):
            swz.swizzle(img, L, i, out=buf)
        for i, img in enumerate(imgs):
            assert same_bytes(swz.deswizzle(buf, L, i), img), (p, i)
            raw = swz.deswizzle(buf, L, i, dtype=np.uint8)
            assert raw.shape[-1] == eb and raw.tobytes() == img.tobytes()
            check_placement(buf, L, i, img)
        done += 1


def test_example_photo_round_trip():
    img = load_example_photo()
    if img is None:
        pytest.skip("examples/coffee.png missing or no PNG reader (matplotlib / PIL) installed")
    h, w, _ = img.shape
    for name in ("std64k", "std4k", "row-major", "pattern:X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2 X5^Y3 Y3"):
        L = swz.Layout.from_name(name, "R8G8B8A8_UNORM", w, h, mips=3)
        buf = bytearray(L.size)
        mips = [np.ascontiguousarray(img[::1 << m, ::1 << m][: L.subresource_layout(m).height, : L.subresource_layout(m).width])
                for m in range(3)]
        for m, im in enumerate(mips):
            swz.swizzle(im, L, m, out=buf)
        for m, im in enumerate(mips):
            assert np.array_equal(swz.deswizzle(bytes(buf), L, m), im)
        check_placement(buf, L, 0, mips[0])
    # The swizzled photo is not the linear photo.
    L = swz.Layout.std64k("R8G8B8A8_UNORM", w, h)
    assert swz.swizzle(img, L)[: w * 4].tobytes() != img[0].tobytes()


def test_boxes():
    rng = np.random.default_rng(3)
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 200, 150)
    full = random_image(rng, (150, 200, 4), np.uint8)
    buf = swz.swizzle(full, L)
    before = buf.copy()
    box = (17, 9, 0, 133, 101, 1)
    patch = random_image(rng, (92, 116, 4), np.uint8)
    swz.swizzle(patch, L, box=box, out=buf)
    expect = full.copy()
    expect[9:101, 17:133] = patch
    assert np.array_equal(swz.deswizzle(buf, L), expect)
    assert np.array_equal(swz.deswizzle(buf, L, box=box), patch)
    assert np.array_equal(swz.deswizzle(buf, L, box=(17, 9, 133, 101)), patch)  # 4-tuple form
    # Bytes of other texels are untouched.
    changed = np.nonzero(buf != before)[0]
    loc = swz.locate(L, changed)
    assert not loc.padding.any()
    assert ((loc.x >= 17) & (loc.x < 133) & (loc.y >= 9) & (loc.y < 101)).all()
    # Empty box: no-op.
    assert swz.swizzle(patch, L, box=(5, 5, 0, 5, 9, 1), out=buf) is buf
    assert swz.deswizzle(buf, L, box=(5, 5, 0, 5, 9, 1)).size == 0


def test_box_3d_and_bc():
    rng = np.random.default_rng(4)
    L = swz.Layout.std64k("R16G16B16A16_FLOAT", 40, 30, 12)
    vol = random_image(rng, (12, 30, 40, 4), np.float16)
    buf = swz.swizzle(vol, L)
    sub = swz.deswizzle(buf, L, box=(3, 4, 2, 20, 30, 9))
    assert same_bytes(sub, np.ascontiguousarray(vol[2:9, 4:30, 3:20]))
    B = swz.Layout.std64k("BC3_UNORM", 70, 50)
    blocks = random_image(rng, (13, 18, 16), np.uint8)
    bbuf = swz.swizzle(blocks, B)
    assert np.array_equal(swz.deswizzle(bbuf, B, box=(8, 4, 0, 70, 50, 1)), blocks[1:, 2:])
    with pytest.raises(ValueError, match="block"):
        swz.deswizzle(bbuf, B, box=(2, 0, 0, 8, 8, 1))
    with pytest.raises(IndexError, match="outside"):
        swz.deswizzle(bbuf, B, box=(0, 0, 0, 72, 8, 1))


def test_buffer_kinds_zero_copy_and_out():
    rng = np.random.default_rng(5)
    L = swz.Layout.std4k("R8G8B8A8_UNORM", 64, 64)
    img = random_image(rng, (64, 64, 4), np.uint8)
    ref = swz.swizzle(img, L)
    for buf in (bytes(ref), bytearray(ref), memoryview(bytes(ref)), ref, ref.view(np.uint32)):
        assert np.array_equal(swz.deswizzle(buf, L), img)
    # A strided (non-contiguous) source buffer is read correctly (copied first).
    doubled = np.zeros(2 * L.size, np.uint8)
    doubled[::2] = ref
    assert np.array_equal(swz.deswizzle(memoryview(doubled)[::2], L), img)
    # out= for swizzle: bytearray and numpy, written in place.
    ba = bytearray(L.size)
    assert swz.swizzle(img, L, out=ba) is ba and bytes(ba) == ref.tobytes()
    # out= for deswizzle: preallocated array, other dtypes, raw buffers.
    out = np.empty((64, 64, 4), np.uint8)
    assert swz.deswizzle(ref, L, out=out) is out and np.array_equal(out, img)
    out32 = np.empty((64, 64), np.uint32)
    swz.deswizzle(ref, L, out=out32)
    assert out32.tobytes() == img.tobytes()
    raw = bytearray(64 * 64 * 4)
    swz.deswizzle(ref, L, out=raw)
    assert bytes(raw) == img.tobytes()
    assert swz.deswizzle(ref, L, dtype=np.uint32).shape == (64, 64, 1)


def test_dtype_views_and_channel_axis():
    rng = np.random.default_rng(6)
    L = swz.Layout.std64k("R32G32B32A32_FLOAT", 33, 20)
    img = random_image(rng, (20, 33, 4), np.float32)
    a = swz.swizzle(img, L)
    assert np.array_equal(swz.swizzle(img.view(np.uint32), L), a)
    assert np.array_equal(swz.swizzle(img.view(np.uint8).reshape(20, 33, 16), L), a)
    rec = img.view(np.dtype([("v", "<f4", (4,))])).reshape(20, 33)
    assert np.array_equal(swz.swizzle(rec, L), a)  # itemsize == element size: C axis may be left out
    R = swz.Layout.std64k("R32_FLOAT", 33, 20)
    one = random_image(rng, (20, 33), np.float32)
    assert np.array_equal(swz.swizzle(one, R), swz.swizzle(one[..., None], R))


def test_single_channel_shapes_round_trip():
    # One documented shape: deswizzle gives (H, W, C) with C = 1; swizzle takes (H, W) too,
    # and deswizzle(out=) of shape (H, W) or (D, H, W) gives that shape back.
    rng = np.random.default_rng(18)
    L = swz.Layout.std64k("R8_UNORM", 37, 21)
    img = rng.integers(0, 256, (21, 37), dtype=np.uint8)
    buf = swz.swizzle(img, L)
    back = swz.deswizzle(buf, L)
    assert back.shape == (21, 37, 1) == L.subresource_layout(0).shape
    assert np.array_equal(back[..., 0], img)
    same = swz.deswizzle(buf, L, out=np.empty_like(img))
    assert same.shape == img.shape and np.array_equal(same, img)
    L3 = swz.Layout.std64k("R16_UNORM", 9, 7, depth=5)
    vol = rng.integers(0, 65536, (5, 7, 9), dtype=np.uint16)
    out3 = swz.deswizzle(swz.swizzle(vol, L3), L3, out=np.empty_like(vol))
    assert out3.shape == vol.shape and np.array_equal(out3, vol)


def test_non_contiguous_and_byteswapped_inputs_are_copied():
    rng = np.random.default_rng(8)
    L = swz.Layout.std64k("R16G16B16A16_UNORM", 50, 40)
    big = random_image(rng, (80, 100, 4), np.uint16)
    view = big[::2, ::2]
    assert not view.flags.c_contiguous
    want = swz.swizzle(np.ascontiguousarray(view), L)
    assert np.array_equal(swz.swizzle(view, L), want)
    fortran = np.asfortranarray(view)
    assert np.array_equal(swz.swizzle(fortran, L), want)
    swapped = np.ascontiguousarray(view).astype(">u2")
    assert np.array_equal(swz.swizzle(swapped, L), want)
    assert np.array_equal(swz.deswizzle(want, L), view)


def test_threads_and_backends_agree():
    rng = np.random.default_rng(9)
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 1024, 1100)
    img = random_image(rng, (1100, 1024, 4), np.uint8)
    ref = swz.swizzle(img, L, backend="scalar", threads=1)
    for b in swz.backends():
        for t in (1, 3, None):
            assert np.array_equal(swz.swizzle(img, L, backend=b, threads=t), ref)
            assert np.array_equal(swz.deswizzle(ref, L, backend=b, threads=t), img)
    assert np.array_equal(swz.swizzle(img, L, write_combined=True), ref)
    with pytest.raises(ValueError, match="backend"):
        swz.swizzle(img, L, backend="cuda")


def test_write_combined_reads_match():
    """Reads with write_combined (streaming loads through a temporary) give the same bytes as plain reads,
    from a buffer at an odd address, for a box, and for a whole surface with mips."""
    rng = np.random.default_rng(11)
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 300, 200)
    img = random_image(rng, (200, 300, 4), np.uint8)
    res = swz.swizzle(img, L)
    raw = np.zeros(res.nbytes + 1, np.uint8)
    raw[1:] = res  # the resource one byte past an aligned address
    odd = memoryview(raw)[1:]
    assert np.array_equal(swz.deswizzle(odd, L, write_combined=True), img)
    box = (17, 9, 250, 131)
    assert np.array_equal(swz.deswizzle(odd, L, box=box, write_combined=True), img[9:131, 17:250])
    M = swz.Layout.std64k("BC1_UNORM", 256, 128, mips="full")
    surf = rng.integers(0, 256, M.size, dtype=np.uint8)
    assert np.array_equal(swz.deswizzle_surface(surf, M, write_combined=True), swz.deswizzle_surface(surf, M))


def test_gil_released_concurrent_calls():
    rng = np.random.default_rng(10)
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 512, 512)
    imgs = [random_image(rng, (512, 512, 4), np.uint8) for _ in range(4)]
    refs = [swz.swizzle(im, L, threads=1) for im in imgs]
    with ThreadPoolExecutor(4) as ex:
        outs = list(ex.map(lambda i: swz.deswizzle(refs[i % 4], L, threads=1), range(16)))
    for i, o in enumerate(outs):
        assert np.array_equal(o, imgs[i % 4])


# ---- errors: a clear exception, and the destination unchanged ----------------

@pytest.fixture
def setup():
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 64, 48)
    img = np.arange(48 * 64 * 4, dtype=np.uint32).astype(np.uint8).reshape(48, 64, 4)
    return L, img


@pytest.mark.parametrize("bad", [
    np.zeros((48, 64, 3), np.uint8),      # wrong channel count
    np.zeros((64, 48, 4), np.uint8),      # transposed
    np.zeros((48, 64), np.uint8),         # itemsize 1 needs C = 4
    np.zeros((1, 48, 64, 4), np.uint8),   # 3D array for a 2D texture
    np.zeros((48, 64, 4), np.uint16),     # 2 x 4 != 4 bytes
    np.zeros((48, 64, 1), np.float64),    # itemsize 8 does not divide 4
    np.zeros(48 * 64 * 4, np.uint8),      # flat
])
def test_bad_shapes_and_dtypes(setup, bad):
    L, _ = setup
    out = np.full(L.size, 0xAB, np.uint8)
    with pytest.raises(ValueError, match="shape|dtype"):
        swz.swizzle(bad, L, out=out)
    assert (out == 0xAB).all()


def test_object_and_string_dtypes_refused(setup):
    L, _ = setup
    with pytest.raises(TypeError):
        swz.swizzle(np.empty((48, 64, 1), object), L)
    with pytest.raises(TypeError):
        swz.swizzle(np.empty((48, 64, 1), "U1"), L)
    with pytest.raises(TypeError):
        swz.swizzle("not an image", L)


def test_short_buffers(setup):
    L, img = setup
    short = np.full(L.size - 1, 0xCD, np.uint8)
    with pytest.raises(ValueError, match="bytes"):
        swz.swizzle(img, L, out=short)
    assert (short == 0xCD).all()
    buf = swz.swizzle(img, L)
    with pytest.raises(ValueError, match="bytes"):
        swz.deswizzle(buf[:-1], L)
    out = bytearray(64 * 48 * 4 - 1)
    with pytest.raises(ValueError):
        swz.deswizzle(buf, L, out=out)
    assert out == bytearray(len(out))


def test_bad_out(setup):
    L, img = setup
    with pytest.raises(ValueError, match="read-only"):
        swz.swizzle(img, L, out=bytes(L.size))
    ro = np.zeros(L.size, np.uint8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        swz.swizzle(img, L, out=ro)
    strided = np.zeros(2 * L.size, np.uint8)[::2]
    with pytest.raises(ValueError, match="contiguous"):
        swz.swizzle(img, L, out=strided)
    buf = swz.swizzle(img, L)
    with pytest.raises(ValueError, match="contiguous"):
        swz.deswizzle(buf, L, out=np.zeros((48, 128, 4), np.uint8)[:, ::2])
    with pytest.raises(ValueError, match="shape"):
        swz.deswizzle(buf, L, out=np.zeros((48, 63, 4), np.uint8))
    with pytest.raises(ValueError, match="byte order"):
        swz.deswizzle(buf, L, out=np.zeros((48, 64, 1), ">u4"))
    with pytest.raises(ValueError, match="dtype"):
        swz.deswizzle(buf, L, out=np.zeros((48, 64, 4), np.uint8), dtype=np.uint8)
    with pytest.raises(TypeError):
        swz.deswizzle(buf, L, out=[0] * 100)
    with pytest.raises(TypeError):
        swz.deswizzle([1, 2, 3], L)


def test_index_errors(setup):
    L, img = setup
    with pytest.raises(IndexError, match="subresource"):
        swz.swizzle(img, L, subresource=1)
    with pytest.raises(IndexError):
        swz.deswizzle(bytes(L.size), L, subresource=-1)
    with pytest.raises(IndexError, match="outside"):
        swz.swizzle(img, L, box=(0, 0, 0, 65, 48, 1))
    with pytest.raises(ValueError, match="box"):
        swz.swizzle(img, L, box=(0, 0, 0, 64, 48))
    with pytest.raises(TypeError):
        swz.swizzle(img, L, box="0,0,64,48")


def test_refused_textures():
    # MSAA and non-power-of-two elements are refused by copies, as by D3D12.
    M = swz.Layout.pattern("X0 X1 S0 S1 X2 Y0", "R8G8B8A8_UNORM", 8, 8, samples=4)
    with pytest.raises(ValueError, match="MSAA"):
        swz.swizzle(np.zeros((8, 8, 4), np.uint8), M)
    with pytest.raises(ValueError, match="12-byte"):
        swz.Layout.std64k("R32G32B32_FLOAT", 8, 8)
    P = swz.Layout.std64k("R8G8B8A8_UNORM", 512, 512, mips="full", packed_mips=(3, 7, 1))
    with pytest.raises(ValueError, match="packed"):
        swz.swizzle(np.zeros(P.subresource_layout(5).shape, np.uint8), P, 5)


def test_write_combined_reads_odd_shapes_match_scalar():
    """write_combined reads of 1x1, odd sizes, 16-byte elements, 3D and array slices past the first,
    boxes at the right/bottom edges give the scalar path's bytes; into out= with guard bytes kept; a resource
    one byte short of the subresource's end or an out one byte short is a ValueError with nothing written."""
    rng = np.random.default_rng(12)
    layouts = [(swz.Layout.std64k(f, w, h), 0) for f in ("R8_UNORM", "R32G32B32A32_FLOAT") for w, h in
               ((1, 1), (3, 5), (17, 9))]
    layouts += [(swz.Layout.std64k("R32G32B32A32_FLOAT", 17, 9, depth=5, mips=2), 1),
                (swz.Layout.std4k("R8G8B8A8_UNORM", 17, 9, mips=2, array=3), 5)]
    for L, sub in layouts:
        surf = rng.integers(0, 256, L.size, dtype=np.uint8)
        s = L.subresource_layout(sub)
        for box in (None, (s.width // 2, s.height // 3, 0, s.width, s.height, s.depth)):
            ref = swz.deswizzle(surf, L, sub, box=box, backend="scalar")
            assert swz.deswizzle(surf, L, sub, box=box, write_combined=True).tobytes() == ref.tobytes()
            raw = np.full(ref.nbytes + 32, 0xAB, np.uint8)
            swz.deswizzle(surf, L, sub, box=box, out=memoryview(raw)[16:16 + ref.nbytes], write_combined=True)
            assert raw[16:16 + ref.nbytes].tobytes() == ref.tobytes()
            assert (raw[:16] == 0xAB).all() and (raw[16 + ref.nbytes:] == 0xAB).all()
            with pytest.raises(ValueError):
                swz.deswizzle(memoryview(surf)[:s.offset + s.size - 1], L, sub, box=box, write_combined=True)
            short = np.full(ref.nbytes - 1, 0xCD, np.uint8)
            with pytest.raises(ValueError):
                swz.deswizzle(surf, L, sub, box=box, out=short, write_combined=True)
            assert (short == 0xCD).all()
