"""Reliability cases for the Python module: out= that shares memory with the
input is refused with the library's one overlap rule (ValueError naming both
ranges), and nothing is written."""
import numpy as np
import pytest

import swz


def rgba(rng, h, w):
    return rng.integers(0, 256, size=(h, w, 4), dtype=np.uint8)


def test_swizzle_out_aliasing_the_input_is_refused():
    rng = np.random.default_rng(18)
    L = swz.Layout.std4k("R8G8B8A8_UNORM", 64, 64)  # 4 tiles of 4 KiB: the image is exactly L.size bytes
    assert L.size == 64 * 64 * 4
    img = rgba(rng, 64, 64)
    buf = np.empty(L.size, np.uint8)
    view = buf.view(np.uint8).reshape(64, 64, 4)
    view[...] = img
    with pytest.raises(ValueError, match="share memory"):
        swz.swizzle(view, L, out=buf)  # the input is the output, whole
    assert np.array_equal(view, img)  # nothing written
    # Partial overlap: the image starts 16 bytes into a larger buffer that is also out.
    big = np.zeros(L.size + 16, np.uint8)
    img_in_big = big[16:].reshape(64, 64, 4)
    img_in_big[...] = img
    before = big.copy()
    with pytest.raises(ValueError, match="share memory"):
        swz.swizzle(img_in_big, L, out=memoryview(big)[: L.size])
    assert np.array_equal(big, before)


def test_deswizzle_out_aliasing_the_buffer_is_refused():
    rng = np.random.default_rng(19)
    L = swz.Layout.std4k("R8G8B8A8_UNORM", 64, 64)
    img = rgba(rng, 64, 64)
    res = swz.swizzle(img, L)
    before = res.copy()
    out = res.reshape(64, 64, 4)  # the same memory as the swizzled buffer
    with pytest.raises(ValueError, match="share memory"):
        swz.deswizzle(res, L, out=out)
    assert np.array_equal(res, before)
    big = bytearray(L.size + 4096)
    big[:L.size] = swz.swizzle(img, L).tobytes()
    with pytest.raises(ValueError, match="share memory"):
        swz.deswizzle(memoryview(big)[: L.size], L, out=memoryview(big)[4096:])
    # Surfaces: any overlap of the linear side with the resource is refused too.
    with pytest.raises(ValueError, match="share memory"):
        swz.deswizzle_surface(memoryview(big)[: L.size], L, out=memoryview(big)[16:])
    with pytest.raises(ValueError, match="share memory"):
        swz.swizzle_surface(memoryview(big)[16:16 + L.size], L, out=memoryview(big)[: L.size])


def test_disjoint_out_is_still_zero_copy():
    rng = np.random.default_rng(20)
    L = swz.Layout.std4k("R8G8B8A8_UNORM", 64, 64)
    img = rgba(rng, 64, 64)
    both = np.zeros(2 * L.size, np.uint8)  # one allocation, two disjoint halves
    both[L.size:] = img.reshape(-1)
    swz.swizzle(both[L.size:].reshape(64, 64, 4), L, out=both[: L.size])
    assert np.array_equal(both[: L.size], swz.swizzle(img, L))


def test_layout_building_releases_the_gil():
    """A layout whose postamble moves whole blocks is verified block by block
    (2^24 blocks here): other Python threads run meanwhile. The main thread
    counts the turns it gets while the worker is inside the build (between
    the flags it sets around the call); with the GIL held for the whole build
    it would get at most the one or two turns before the call starts."""
    import threading
    import time

    inside = threading.Event()
    done = threading.Event()

    def build():
        inside.set()
        swz.Layout.pattern("X0 X1 X2 X3 Y0 Y1 Y2 Y3 post8=X20", "R8_UNORM", 65536, 65536)
        done.set()

    worker = threading.Thread(target=build)
    worker.start()
    turns = 0
    while not done.is_set():
        if inside.is_set():
            turns += 1
        time.sleep(0.0005)
    worker.join()
    assert turns >= 10, turns


def test_layout_names_in_errors_are_escaped():
    # A name is echoed escaped and capped: U+0000 cut the message, bytes that
    # look like UTF-8 but are not (overlong, surrogate) made it an empty
    # ValueError (Python decodes the message strictly).
    cases = [("std64k\x00junk", "'std64k\\u0000junk'"),
             (b"pattern:X0 \xc0\x80", "'\\xc0\\x80' is not a source bit"),
             (b"std\xed\xa0\x80", "'std\\xed\\xa0\\x80'"),
             ("nv-block-linear:gob=\x1b[2J", "gob = '\\u001b[2J'"),
             ("k" * 100000, "(100000 bytes)")]
    for name, want in cases:
        with pytest.raises(ValueError) as e:
            swz.Layout.from_name(name, "R8G8B8A8_UNORM", 4, 4)
        assert want in str(e.value)
        assert len(str(e.value)) < 1500
