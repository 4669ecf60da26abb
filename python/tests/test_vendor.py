"""Vendor layouts by their CLI names (when the library has them): copies,
offsets and locate agree through the Python API."""
import numpy as np
import pytest

import swz

FAMILIES = ["nv-block-linear:gob=tegra,bh=4", "intel-tile4", "amd-gfx10.3-sw64k-r-x", "amd-gfx9-sw4k-s"]


def available(spec):
    return spec.split(":")[0] in swz.layout_names()


@pytest.mark.parametrize("spec", FAMILIES)
def test_vendor_round_trip_and_address_map(spec):
    if not available(spec):
        pytest.skip(f"{spec.split(':')[0]} is not built into this swz")
    rng = np.random.default_rng(2)
    mips = 2  # AMD GFX9/GFX10.3: addrlib's chain
    L = swz.Layout.from_name(spec, "R8G8B8A8_UNORM", 90, 70, mips=mips)
    assert spec.split(":")[0] in L.name
    buf = np.zeros(L.size, np.uint8)
    imgs = []
    for i in range(L.subresource_count):
        img = rng.integers(0, 256, L.subresource_layout(i).shape, np.uint8)
        swz.swizzle(img, L, i, out=buf)
        imgs.append(img)
    for i, img in enumerate(imgs):
        assert np.array_equal(swz.deswizzle(buf, L, i), img)
        s = L.subresource_layout(i)
        off = swz.offsets(L, np.arange(s.width_el), np.arange(s.height_el)[:, None], subresource=i)
        assert np.array_equal(buf[off[..., None].astype(np.int64) + np.arange(4)], img)
        r = swz.locate(L, off)
        assert (r.subresource == i).all() and not r.padding.any()
        assert (r.x == np.arange(s.width_el)).all() and (r.y == np.arange(s.height_el)[:, None]).all()


def test_families_listing():
    fams = swz.layout_families()
    names = swz.layout_names()
    assert names[:3] == ["row-major", "std64k", "std4k"]
    for f in fams:
        assert f["name"] in names and f["description"]
