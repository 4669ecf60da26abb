"""swz.Layout factories, subresources, footprints, formats."""
import json

import numpy as np
import pytest

import swz


def test_std64k_2d_size():
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 256, 256)
    # 32bpp 64KB tile = 128x128 texels -> 2x2 tiles.
    assert L.size == 4 * 65536
    assert L.alignment == 65536
    assert L.subresource_count == 1
    assert L.dimension == 2 and L.depth is None
    assert L.name == "std64k"
    assert L.format.name == "R8G8B8A8_UNORM" and L.format.element_bytes == 4
    s = L.subresource_layout(0)
    assert (s.width, s.height, s.depth, s.width_el, s.height_el) == (256, 256, 1, 256, 256)
    assert s.row_pitch == 2 * 65536
    assert s.shape == (256, 256, 4)
    assert s.pattern == swz.Pattern.standard("std64k", 4)


def test_format_spellings():
    a = swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64)
    b = swz.Layout.std64k("dxgi_format_r8g8b8a8_unorm", 64, 64)
    c = swz.Layout.std64k(28, 64, 64)
    d = swz.Layout.std64k(swz.format_info("R8G8B8A8_UNORM"), 64, 64)
    assert a.format == b.format == c.format == d.format
    with pytest.raises(ValueError, match="R8G8B8A9"):
        swz.Layout.std64k("R8G8B8A9_UNORM", 64, 64)
    with pytest.raises(TypeError):
        swz.Layout.std64k(2.5, 64, 64)


def test_depth_makes_3d():
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64, 1)
    assert L.dimension == 3 and L.depth == 1
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64, depth=16, mips="full")
    assert L.dimension == 3 and L.mips == 7 and L.subresource_count == 7
    assert L.subresource_layout(0).shape == (16, 64, 64, 4)
    assert L.subresource_layout(1).shape == (8, 32, 32, 4)
    with pytest.raises(ValueError, match="array_size"):
        swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64, depth=4, array=2)


def test_mips_and_array_indexing():
    L = swz.Layout.std4k("R16G16B16A16_FLOAT", 100, 60, mips=3, array=4)
    assert L.subresource_count == 12
    assert L.subresource_index(2, 3) == 2 + 3 * 3
    s = L.subresource_layout(L.subresource_index(1, 2))
    assert (s.mip, s.array_slice, s.width, s.height) == (1, 2, 50, 30)
    assert s.offset % 4096 == 0
    subs = L.subresources()
    assert [x.index for x in subs] == list(range(12))
    offs = [x.offset for x in subs]
    assert offs == sorted(offs) and subs[-1].offset + subs[-1].size == L.size
    with pytest.raises(IndexError):
        L.subresource_layout(12)
    with pytest.raises(IndexError):
        L.subresource_layout(-1)
    with pytest.raises(IndexError):
        L.subresource_index(3, 0)
    assert L.dtype == np.float16


def test_mips_zero_is_the_full_chain():
    # D3D12_RESOURCE_DESC's MipLevels = 0, as the CLI's --mips 0 and C's mip_levels = 0.
    for factory in (swz.Layout.std64k, swz.Layout.std4k, swz.Layout.row_major):
        assert factory("R8G8B8A8_UNORM", 600, 400, mips=0).mips == 10
        assert factory("R8G8B8A8_UNORM", 600, 400, mips=0).size == factory("R8G8B8A8_UNORM", 600, 400, mips="full").size
    assert swz.Layout.std64k("R16_UNORM", 40, 24, depth=70, mips=0).mips == 7
    assert swz.Layout.from_name("nv-block-linear", "R8G8B8A8_UNORM", 64, 32, mips=0).mips == 7


def test_bad_sizes():
    with pytest.raises(ValueError, match="width"):
        swz.Layout.std64k("R8G8B8A8_UNORM", 0, 64)
    with pytest.raises(ValueError):
        swz.Layout.std64k("R8G8B8A8_UNORM", -1, 64)
    with pytest.raises(ValueError, match="mip"):
        swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64, mips=8)
    with pytest.raises(ValueError):
        swz.Layout.std64k("R8G8B8A8_UNORM", 64, 64, mips="most")
    with pytest.raises(ValueError, match="12-byte"):
        swz.Layout.std64k("R32G32B32_FLOAT", 64, 64)


def test_row_major_and_footprints():
    L = swz.Layout.row_major("R8G8B8A8_UNORM", 300, 200, mips=2)
    s = L.subresource_layout(0)
    assert s.row_pitch == 1280  # 1200 aligned up to 256
    assert L.subresource_layout(1).offset % 512 == 0
    fp = L.footprints()
    assert len(fp) == 2
    assert (fp[0].row_pitch, fp[0].rows, fp[0].row_size, fp[0].offset) == (1280, 200, 1200, 0)
    assert fp[1].offset % 512 == 0 and fp[1].width == 150
    assert L.footprints_size() == fp[1].offset + fp[1].total_bytes
    assert swz.Layout.row_major("R8G8B8A8_UNORM", 300, 200, row_pitch=4096).subresource_layout(0).row_pitch == 4096
    with pytest.raises(ValueError, match="row_pitch"):
        swz.Layout.row_major("R8G8B8A8_UNORM", 300, 200, row_pitch=1000)
    # Non-power-of-two elements are fine for row-major.
    assert swz.Layout.row_major("R32G32B32_FLOAT", 10, 10).subresource_layout(0).element_bytes == 12


def test_u64_arguments_take_the_whole_range():
    # Byte counts are uint64: 2**63 is a value (refused by the layout for its own reason, not as
    # out of range), 2**64 and -1 are out of range and the message gives the value and 0..2**64-1.
    with pytest.raises((ValueError, OverflowError)) as e:
        swz.Layout.row_major("R8G8B8A8_UNORM", 300, 200, row_pitch=2**63)
    assert "outside" not in str(e.value)
    for bad in (2**64, -1):
        with pytest.raises(ValueError, match=r"row_pitch = %d is outside 0\.\.18446744073709551615" % bad):
            swz.Layout.row_major("R8G8B8A8_UNORM", 300, 200, row_pitch=bad)
    with pytest.raises(TypeError, match="row_pitch must be an integer"):
        swz.Layout.row_major("R8G8B8A8_UNORM", 300, 200, row_pitch=1.5)


def test_pattern_layout_and_from_name(tmp_path):
    text = "X0 X1 X2 X3 Y0 Y1 X4^Y2 Y2"
    a = swz.Layout.pattern(text, "R8G8B8A8_UNORM", 64, 32)
    b = swz.Layout.pattern(swz.Pattern(text), "R8G8B8A8_UNORM", 64, 32)
    c = swz.Layout.from_name("pattern:" + text, "R8G8B8A8_UNORM", 64, 32)
    f = tmp_path / "p.json"
    f.write_text(swz.Pattern(text).to_json())
    d = swz.Layout.from_name(str(f), "R8G8B8A8_UNORM", 64, 32)
    for L in (a, b, c, d):
        assert L.name == "pattern" and L.size == a.size and L.patterns == [swz.Pattern(text)]
    assert swz.Layout.from_name("std64k", "BC1_UNORM", 64, 64).size == 65536
    assert swz.Layout.from_name("row-major", "R8_UNORM", 64, 64).name == "row-major"
    with pytest.raises(ValueError, match="unknown layout"):
        swz.Layout.from_name("std128k", "R8_UNORM", 64, 64)
    with pytest.raises(ValueError):  # pattern invalid for 4-byte elements
        swz.Layout.pattern("Y0 X0 X1", "R8G8B8A8_UNORM", 64, 32)
    assert "pattern:TEXT" in swz.layout_names()


def test_repr():
    L = swz.Layout.std64k("BC7_UNORM", 256, 128, mips=2)
    r = repr(L)
    assert "std64k" in r and "BC7_UNORM" in r and "mips=2" in r
    assert "X0" in repr(swz.Layout.pattern("X0 X1 Y0", "R8_UNORM", 8, 8))


def test_bc_elements():
    L = swz.Layout.std64k("BC1_UNORM", 130, 66)
    s = L.subresource_layout(0)
    assert (s.width_el, s.height_el, s.element_bytes) == (33, 17, 8)
    assert s.shape == (17, 33, 8)
    assert L.dtype == np.uint8


@pytest.mark.parametrize("fmt, dtype, c", [
    ("R8G8B8A8_UNORM", np.uint8, 4), ("R32G32B32A32_FLOAT", np.float32, 4), ("R16G16B16A16_FLOAT", np.float16, 4),
    ("R16_SINT", np.int16, 1), ("R32G32_UINT", np.uint32, 2), ("R10G10B10A2_UNORM", np.uint32, 1),
    ("BC7_UNORM", np.uint8, 16), ("B8G8R8X8_UNORM", np.uint8, 4), ("R8G8B8A8_SNORM", np.int8, 4),
])
def test_default_dtypes(fmt, dtype, c):
    f = swz.format_info(fmt)
    assert f.dtype == np.dtype(dtype) and f.components == c
    assert np.dtype(dtype).itemsize * c == f.element_bytes


def test_formats_listing():
    names = [f.name for f in swz.formats()]
    assert "R8G8B8A8_UNORM" in names and "BC7_UNORM" in names
    assert swz.format_info("bc1_unorm").block_compressed


def test_device_layout_json():
    doc = {
        "format": "R8G8B8A8_UNORM", "width": 64, "height": 32, "mip_levels": 2,
        "patterns": ["X0 X1 X2 X3 Y0 Y1 X4 Y2 X5 Y3", "X0 X1 X2 Y0 X3 Y1 X4 Y2"],
        "mip_transitions": [1, 255, 255, 255, 255],
        "subresources": [{"offset": 0, "row_byte_pre_swizzle": 0, "column_pre_swizzle": 2},
                         {"offset": 16384}],
    }
    L = swz.Layout.from_resource_layout_json(json.dumps(doc))
    s0, s1 = L.subresource_layout(0), L.subresource_layout(1)
    assert s0.pre_swizzle == (0, 2, 0)
    assert s0.pattern == swz.Pattern(doc["patterns"][0]) and s1.pattern == swz.Pattern(doc["patterns"][1])
    assert s1.offset == 16384
    with pytest.raises(ValueError):
        swz.Layout.from_resource_layout_json("{}")


def test_packed_mips():
    L = swz.Layout.std64k("R8G8B8A8_UNORM", 512, 512, mips="full", packed_mips=(3, 7, 1))
    flags = [s.packed for s in L.subresources()]
    assert flags == [False] * 3 + [True] * 7
