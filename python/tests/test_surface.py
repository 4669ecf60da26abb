"""swz.swizzle_surface / swz.deswizzle_surface: every subresource in one call,
checked against one swz.swizzle / swz.deswizzle per subresource and against
swz.offsets (independent of the copy kernels); error cases write nothing."""
import numpy as np
import pytest

import swz


def surface_layouts():
    return [
        swz.Layout.std64k("R8G8B8A8_UNORM", 70, 33, mips="full", array=2),
        swz.Layout.std4k("BC7_UNORM", 50, 22, mips=4),
        swz.Layout.row_major("R16_UNORM", 40, 24, depth=5, mips=3),
        swz.Layout.from_name("nv-block-linear:gob=tegra,bh=2", "R8G8B8A8_UNORM", 33, 17, mips="full"),
    ]


@pytest.mark.parametrize("layout", surface_layouts(), ids=lambda L: L.name)
def test_surface_matches_per_subresource_calls(layout):
    rng = np.random.default_rng(5)
    n = layout.surface_linear_size
    offs = layout.surface_linear_offsets
    assert len(offs) == layout.subresource_count and offs[0] == 0
    sizes = [int(np.prod(layout.subresource_layout(i).shape)) * layout.subresource_layout(i).element_bytes
             // layout.subresource_layout(i).shape[-1] for i in range(layout.subresource_count)]
    assert n == sum(sizes) and all(offs[i + 1] == offs[i] + sizes[i] for i in range(len(sizes) - 1))
    lin = rng.integers(0, 256, size=n, dtype=np.uint8)

    res = swz.swizzle_surface(lin, layout)
    assert res.dtype == np.uint8 and res.shape == (layout.size,)
    expect = np.zeros(layout.size, np.uint8)
    for i in range(layout.subresource_count):
        s = layout.subresource_layout(i)
        part = lin[offs[i]:offs[i] + sizes[i]].view(np.uint8).reshape(s.shape[:-1] + (s.element_bytes,))
        swz.swizzle(part, layout, i, out=expect)
        # the first byte of each element where swz.offsets puts it
        if layout.dimension == 3:
            z, y, x = np.meshgrid(np.arange(s.depth), np.arange(s.height_el), np.arange(s.width_el), indexing="ij")
            where = swz.offsets(layout, x, y, z, subresource=i)
        else:
            y, x = np.meshgrid(np.arange(s.height_el), np.arange(s.width_el), indexing="ij")
            where = swz.offsets(layout, x, y, subresource=i)
        assert np.array_equal(res[where], part[..., 0])
    assert np.array_equal(res, expect)

    back = swz.deswizzle_surface(res, layout)
    assert back.dtype == np.uint8 and np.array_equal(back, lin)
    out = bytearray(n)
    assert swz.deswizzle_surface(bytes(res), layout, out=out) is out and bytes(out) == lin.tobytes()


def test_linear_offsets_aligned_mips():
    layout = swz.Layout.std64k("R8G8B8A8_UNORM", 37, 21, mips="full")
    lin = np.arange(layout.surface_linear_size, dtype=np.uint32).astype(np.uint8)
    res = swz.swizzle_surface(lin, layout)
    offs, pos = [], 0
    for i in range(layout.subresource_count):
        offs.append(pos)
        nb = layout.surface_linear_offsets[i + 1] - layout.surface_linear_offsets[i] if i + 1 < layout.subresource_count \
            else layout.surface_linear_size - layout.surface_linear_offsets[i]
        pos = (pos + nb + 15) // 16 * 16
    aligned = swz.deswizzle_surface(res, layout, linear_offsets=offs)
    assert aligned.shape[0] >= offs[-1]
    packed = layout.surface_linear_offsets
    for i in range(layout.subresource_count):
        end = packed[i + 1] if i + 1 < len(packed) else layout.surface_linear_size
        assert np.array_equal(aligned[offs[i]:offs[i] + end - packed[i]], lin[packed[i]:end])
    assert np.array_equal(swz.swizzle_surface(aligned, layout, linear_offsets=offs), res)


def test_surface_errors_write_nothing():
    layout = swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64, mips=3)
    lin = np.ones(layout.surface_linear_size, np.uint8)
    out = np.full(layout.size, 7, np.uint8)
    with pytest.raises(ValueError, match="linear"):
        swz.swizzle_surface(lin[:-1], layout, out=out)
    with pytest.raises(ValueError, match="resource|out"):
        swz.swizzle_surface(lin, layout, out=out[:-1])
    with pytest.raises(ValueError, match="3 subresources"):
        swz.swizzle_surface(lin, layout, out=out, linear_offsets=[0, 1])
    with pytest.raises(ValueError, match="overlaps"):
        swz.swizzle_surface(lin, layout, out=out, linear_offsets=[0, 4, 20000])
    with pytest.raises(ValueError, match="read-only"):
        swz.swizzle_surface(lin, layout, out=bytes(layout.size))
    with pytest.raises(TypeError):
        swz.swizzle_surface(42, layout)
    assert np.all(out == 7)
    with pytest.raises(ValueError, match="linear buffer"):
        swz.deswizzle_surface(bytes(layout.size), layout, out=bytearray(layout.surface_linear_size - 1))
