"""swz.order_image and swz.plot_pattern."""
import os
import sys

import numpy as np
import pytest

import swz


def test_order_image_std64k_matches_offsets():
    o = swz.order_image(swz.Pattern.standard("std64k", 4), element_bytes=4)
    assert o.shape == (128, 128) and o.dtype == np.int64
    assert np.array_equal(np.sort(o.ravel()), np.arange(128 * 128))
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 128, 128)
    assert np.array_equal(swz.order_image(L), o)
    off = swz.offsets(L, np.arange(128), np.arange(128)[:, None])
    assert np.array_equal(off // 4, o)
    # The spec's 32bpp pattern: 4 texels of a row are contiguous, then the next row.
    assert o[0, :4].tolist() == [0, 1, 2, 3] and o[1, 0] == 4


def test_order_image_small_pattern_and_bytes():
    p = swz.Pattern("X0 X1 X2 X3 Y0 Y1 X4 Y2")
    o = swz.order_image(p, element_bytes=4)
    assert o.shape == (8, 8)
    assert o[0].tolist() == [0, 1, 2, 3, 16, 17, 18, 19]
    ob = swz.order_image("X0 X1 Y0")  # text, 1-byte elements
    assert ob.tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_order_image_3d_samples_and_origin():
    p3 = swz.Pattern.standard("std64k", 4, 3)
    o3 = swz.order_image(p3, element_bytes=4)
    ez, ey, ex = p3.block_shape(4)
    assert o3.shape == (ez, ey, ex)
    assert np.array_equal(np.sort(o3.ravel()), np.arange(o3.size))
    m = swz.order_image(swz.Pattern("X0 X1 S0 S1 X2 Y0"), element_bytes=4)
    assert m.shape == (4, 2, 2)  # (samples, rows, columns)
    # An XOR term on a bit above the block changes the order of the next block.
    q = swz.Pattern("X0 X1 Y0^X2")
    assert swz.order_image(q).tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert swz.order_image(q, origin=(4, 0)).tolist() == [[4, 5, 6, 7], [0, 1, 2, 3]]


def test_order_image_errors():
    with pytest.raises(ValueError):
        swz.order_image(swz.Pattern("Y0 X0"), element_bytes=2)
    with pytest.raises(TypeError):
        swz.order_image(42)
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64)
    with pytest.raises(ValueError, match="element_bytes"):
        swz.order_image(L, element_bytes=2)
    with pytest.raises(IndexError):
        swz.order_image(L, 3)


def test_plot_pattern_writes_png(tmp_path):
    # CI installs python3-matplotlib (.ci/install-deps.sh): there the test runs, never skips.
    if os.environ.get("CI") == "true":
        import matplotlib  # noqa: F401
    else:
        pytest.importorskip("matplotlib")
    out = tmp_path / "std64k.png"
    r = swz.plot_pattern(swz.Pattern("X0 X1 X2 X3 Y0 Y1 X4 Y2"), out, element_bytes=4)
    assert r == str(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out3 = tmp_path / "std64k_3d.png"
    swz.plot_pattern(swz.Layout.std4k("R8_UNORM", 16, 16, 16), out3)
    assert out3.read_bytes()[:4] == b"\x89PNG"


def test_plot_pattern_without_matplotlib(monkeypatch, tmp_path):
    for name in list(sys.modules):
        if name == "matplotlib" or name.startswith("matplotlib."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib...` fail
    with pytest.raises(ImportError, match="needs matplotlib"):
        swz.plot_pattern(swz.Pattern("X0 X1 Y0"), tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()
    # order_image keeps working without it.
    assert swz.order_image("X0 X1 Y0").shape == (2, 4)
