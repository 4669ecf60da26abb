"""Hostile checks of the one request path from Python: the overlap verdicts of
copy_regions, copy_tiles and the footprint copies for one buffer seen through
several Python objects, and that refused calls leave every byte as it was."""
import numpy as np
import pytest

import swz


def test_same_memory_through_another_object_gets_the_same_verdict():
    L = swz.Layout.std4k("R8G8B8A8_UNORM", 64, 64)
    rng = np.random.default_rng(3)
    buf = rng.integers(0, 256, size=L.size, dtype=np.uint8)
    legal = [{"box": (0, 0, 16, 16), "dst": (16, 0)}]
    illegal = [{"box": (0, 0, 16, 16), "dst": (15, 0)}]
    # One object on both sides, a view of the same bytes, a memoryview: one buffer, one placement.
    for other in (lambda b: b, lambda b: b[:], lambda b: b.view(np.uint8), lambda b: memoryview(b)):
        a = buf.copy()
        swz.copy_regions(a, L, other(a), L, legal)
        ref = buf.copy()
        swz.copy_regions(ref, L, buf.copy(), L, legal)
        assert np.array_equal(a, ref)
        b = buf.copy()
        with pytest.raises(ValueError, match="overlap"):
            swz.copy_regions(b, L, other(b), L, illegal)
        assert np.array_equal(b, buf)


def test_adjacent_halves_of_one_allocation_are_legal():
    L = swz.Layout.std4k("R8G8B8A8_UNORM", 64, 64)
    big = np.arange(2 * L.size, dtype=np.uint32).astype(np.uint8)
    src_before = big[:L.size].copy()
    swz.copy_regions(big[L.size:], L, big[:L.size], L, [{"box": (0, 0, 64, 64)}])
    assert np.array_equal(big[L.size:], src_before)
    # One byte of overlap is refused, nothing written.
    big2 = np.arange(2 * L.size, dtype=np.uint32).astype(np.uint8)
    keep = big2.copy()
    with pytest.raises(ValueError, match="share memory"):
        swz.copy_regions(big2[L.size - 1:2 * L.size - 1], L, big2[:L.size], L, [{"box": (0, 0, 1, 1)}])
    assert np.array_equal(big2, keep)


def test_empty_regions_in_one_buffer_are_legal():
    L = swz.Layout.std4k("R8G8B8A8_UNORM", 64, 64)
    buf = np.arange(L.size, dtype=np.uint32).astype(np.uint8)
    keep = buf.copy()
    swz.copy_regions(buf, L, buf, L, [{"box": (5, 5, 5, 9), "dst": (5, 5)}, {"box": (0, 0, 8, 0)}])
    assert np.array_equal(buf, keep)


def test_many_deep_regions_in_one_buffer():
    L = swz.Layout.std64k("R8_UNORM", 2000, 1, depth=256)
    buf = np.arange(L.size, dtype=np.uint32).astype(np.uint8)
    regions = [{"box": (i, 0, 0, i + 1, 1, 256), "dst": (1000 + i, 0, 0)} for i in range(1000)]
    swz.copy_regions(buf, L, buf, L, regions)
    got = swz.deswizzle(buf, L)
    assert np.array_equal(got[:, :, 1000:2000], got[:, :, 0:1000])


def test_all_empty_footprint_regions_share_nothing():
    L = swz.Layout.std4k("R8G8B8A8_UNORM", 64, 64)
    buf = np.arange(L.size, dtype=np.uint32).astype(np.uint8)
    keep = buf.copy()
    fp = {"offset": 0, "format": "R8G8B8A8_UNORM", "width": 64, "height": 64, "row_pitch": 256}
    # The footprint lies in the resource's own bytes; the only region is empty: nothing moves, nothing shared.
    swz.copy_buffer_to_texture(buf, L, buf, fp, regions=[{"box": (4, 4, 4, 8)}])
    swz.copy_texture_to_buffer(buf, fp, buf, L, regions=[{"box": (4, 4, 4, 8)}])
    assert np.array_equal(buf, keep)
    with pytest.raises(ValueError, match="share memory"):
        swz.copy_buffer_to_texture(buf, L, buf, fp, regions=[{"box": (4, 4, 8, 8)}])
    assert np.array_equal(buf, keep)
