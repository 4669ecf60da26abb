"""swz.identify and swz.infer (include/swz/identify.hpp) from Python."""
import os

import numpy as np
import pytest

import swz

HERE = os.path.dirname(__file__)


def smooth_image(w, h):
    """A smooth synthetic RGBA8 picture (gradients and a disc): natural-image-like statistics."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    r = 128 + 100 * np.sin(x / 17.0) * np.cos(y / 23.0)
    g = 255 * x / w
    b = np.where((x - w / 2) ** 2 + (y - h / 3) ** 2 < (h / 4) ** 2, 220, 40 + 0.3 * y)
    a = np.full_like(r, 255)
    return np.clip(np.stack([r, g, b, a], axis=-1), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("name", ["row-major", "std64k", "nv-block-linear:gob=tegra,bh=4", "intel-tile4", "amd-gfx10.3-sw64k-r-x"])
def test_identify_ranks_the_truth_first(name):
    img = smooth_image(200, 120)
    truth = swz.Layout.from_name(name, "R8G8B8A8_UNORM", 200, 120)
    dump = swz.swizzle(img, truth)
    got = swz.identify(dump, "R8G8B8A8_UNORM", 200, 120, top=3)
    assert 1 <= len(got) <= 3
    score, layout = got[0]
    assert isinstance(score, float) and isinstance(layout, str)
    assert [s for s, _ in got] == sorted((s for s, _ in got), reverse=True)
    back = swz.deswizzle(dump, swz.Layout.from_name(layout, "R8G8B8A8_UNORM", 200, 120))
    np.testing.assert_array_equal(back, img)


def test_identify_searches_the_offset_and_reports_short_dumps():
    img = smooth_image(200, 120)
    truth = swz.Layout.from_name("std4k", "R8G8B8A8_UNORM", 200, 120)
    tex = bytes(swz.swizzle(img, truth))
    noise = np.random.default_rng(5).integers(0, 256, 8192, dtype=np.uint8).tobytes()
    got = swz.identify(noise + tex + bytes(8192), "R8G8B8A8_UNORM", 200, 120, top=3, offset=None)
    assert got[0].layout == "std4k" and got[0].offset == 8192 and got[0].short == 0
    score, layout = got[0]  # still the (score, layout) pair
    assert layout == "std4k" and score == got[0].score
    stepped = swz.identify(noise + tex, "R8G8B8A8_UNORM", 200, 120, offset=4096, offset_step=4096)
    assert (stepped[0].layout, stepped[0].offset) == ("std4k", 8192)
    cut = len(tex) * 9 // 10
    short = swz.identify(tex[:cut], "R8G8B8A8_UNORM", 200, 120)
    assert short[0].layout == "std4k" and short[0].short == truth.size - cut
    with pytest.raises(ValueError, match="offset_step = 3"):
        swz.identify(tex, "R8G8B8A8_UNORM", 200, 120, offset_step=3)


def test_compiled_functions_show_their_signatures():
    import inspect
    for f, names in [(swz.identify, ["dump", "format", "width", "height", "top", "offset", "offset_step"]),
                     (swz.decode, ["data", "format", "width", "height", "row_pitch", "float32"]),
                     (swz.clear, ["buffer", "layout", "value", "subresource", "box", "format"]),
                     (swz.formats, [])]:
        params = list(inspect.signature(f).parameters)
        assert params[:len(names)] == names, (f.__name__, params)
    assert inspect.signature(swz.identify).parameters["top"].default == 5
    assert "offset_step" in (swz.identify.__doc__ or "")


def test_identify_errors():
    with pytest.raises(ValueError, match="single-plane format"):
        swz.identify(bytes(4096), "NV12", 64, 64)
    with pytest.raises(IndexError, match="less than one element"):
        swz.identify(b"abc", "R8G8B8A8_UNORM", 1, 1)
    with pytest.raises(IndexError, match="no layout fits"):
        swz.identify(bytes(100), "R8G8B8A8_UNORM", 64, 64)
    with pytest.raises(TypeError):
        swz.identify(12, "R8G8B8A8_UNORM", 64, 64)


def test_identify_block_compressed():
    # BC1 blocks of a smooth image (one colour per block, a gradient), swizzled: ranked on decoded colours.
    bw, bh = 32, 16
    blocks = bytearray()
    for by in range(bh):
        for bx in range(bw):
            c0 = ((bx * 31 // bw) << 11) | ((by * 63 // bh) << 5) | ((bx + by) % 32)
            blocks += (max(c0, 1)).to_bytes(2, "little") + (0).to_bytes(2, "little") + bytes(4)
    layout = swz.Layout.std64k("BC1_UNORM", bw * 4, bh * 4)
    dump = swz.swizzle(np.frombuffer(bytes(blocks), np.uint8).reshape(bh, bw, 8), layout)
    got = swz.identify(dump, "BC1_UNORM", bw * 4, bh * 4, top=3)
    assert got[0][1] == "std64k"


def probe_of(layout, w, h):
    idx = np.arange(w * h, dtype=np.uint32).reshape(h, w, 1)
    return swz.swizzle(idx, layout)


@pytest.mark.parametrize("name", ["std4k", "nv-block-linear:gob=turing,bh=8", "adreno-a6xx", "xbox360-tiled",
                                  "pattern:X0 X1 X2 X3^Y4 Y0 Y1 X4 Y2^X6 Y3 X5 imm=0x40"])
def test_infer_recovers_the_layout(name):
    w, h = 130, 70
    truth = swz.Layout.from_name(name, "R32_UINT", w, h)
    probe = probe_of(truth, w, h)
    got = swz.infer(probe, "R32_UINT", w, h)
    assert isinstance(got, swz.Layout)
    x, y = np.meshgrid(np.arange(w), np.arange(h))
    np.testing.assert_array_equal(swz.offsets(got, x, y), swz.offsets(truth, x, y))


def test_infer_not_a_probe():
    rng = np.random.default_rng(16)
    with pytest.raises(ValueError, match="not a probe"):
        swz.infer(rng.integers(0, 2**32, 64 * 64, dtype=np.uint32), "R32_UINT", 64, 64)
    with pytest.raises(ValueError, match="4-byte format"):
        swz.infer(bytes(4096), "R8_UNORM", 64, 64)
