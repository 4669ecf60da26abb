"""swz.decode against an independent decoder: Pillow's BCn decoder (Debian
python3-pil), on random blocks, which reach every mode, partition and index
of each format. Values may differ by one step of 8 bits: the D3D
specification leaves BC1-BC3 interpolation rounding to the implementation
(Pillow truncates, swz rounds to nearest) and Pillow truncates BC6H halves.

Formats Pillow does not decode, or decodes to other conventions (signed
BC4/BC5 and BC6H), are checked in tests/core/test_core_decode.cpp against
hand-computed vectors."""
import io
import struct

import numpy as np
import pytest

import swz

Image = pytest.importorskip("PIL.Image")


def dds_file(width: int, height: int, data: bytes, fourcc: bytes, dxgi: int = 0) -> bytes:
    """A DDS file (Microsoft's DDS_HEADER, and DDS_HEADER_DXT10 when fourcc is DX10)."""
    flags = 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000  # CAPS, HEIGHT, WIDTH, PIXELFORMAT, LINEARSIZE
    pixel_format = struct.pack("<II4sIIIII", 32, 0x4, fourcc, 0, 0, 0, 0, 0)
    header = (struct.pack("<IIIIIII", 124, flags, height, width, len(data), 0, 1) + b"\0" * 44 + pixel_format +
              struct.pack("<IIIII", 0x1000, 0, 0, 0, 0))
    dx10 = struct.pack("<IIIII", dxgi, 3, 0, 1, 0) if fourcc == b"DX10" else b""
    return b"DDS " + header + dx10 + data


# (swz format, FourCC, DXGI value for DX10 files, block bytes, channels Pillow returns)
CASES = [
    ("BC1_UNORM", b"DXT1", 0, 8, 4),
    ("BC2_UNORM", b"DXT3", 0, 16, 4),
    ("BC3_UNORM", b"DXT5", 0, 16, 4),
    ("BC4_UNORM", b"ATI1", 0, 8, 1),
    ("BC5_UNORM", b"ATI2", 0, 16, 2),
    ("BC6H_UF16", b"DX10", 95, 16, 3),
    ("BC7_UNORM", b"DX10", 98, 16, 4),
]


@pytest.mark.parametrize("name,fourcc,dxgi,block_bytes,channels", CASES, ids=[c[0] for c in CASES])
def test_blocks_match_pillow(name, fourcc, dxgi, block_bytes, channels):
    rng = np.random.default_rng(dxgi + block_bytes)
    width, height = 128, 64
    blocks = rng.integers(0, 256, size=(width // 4) * (height // 4) * block_bytes, dtype=np.uint8)
    if name.startswith("BC7"):
        blocks[::16][blocks[::16] == 0] = 1  # the reserved mode 8 is checked below
    data = blocks.tobytes()
    image = Image.open(io.BytesIO(dds_file(width, height, data, fourcc, dxgi)))
    image.load()
    ref = np.asarray(image.convert("RGBA")).astype(int)
    got = swz.decode(data, name, width, height).astype(int)
    assert got.shape == (height, width, 4)
    diff = np.abs(got[..., :channels] - ref[..., :channels])
    assert diff.max() <= 1, f"{name}: {int((diff > 1).sum())} components differ by more than 1"
    # Exact agreement on most texels: the one-step latitude is rounding only.
    assert (diff == 0).mean() > 0.5
    if channels == 1:  # BC4: grey
        assert (got[..., 0] == got[..., 1]).all() and (got[..., 0] == got[..., 2]).all()
    if channels < 4:
        assert (got[..., 3] == 255).all()


def _pillow_rgba(data: bytes, fourcc: bytes, width: int = 4, height: int = 4) -> np.ndarray:
    image = Image.open(io.BytesIO(dds_file(width, height, data, fourcc)))
    image.load()
    return np.asarray(image.convert("RGBA")).astype(int)


def _indices(bits: int, values) -> bytes:
    """Sixteen indices of `bits` bits packed from the least significant bit up."""
    v = 0
    for i, x in enumerate(values):
        v |= x << (bits * i)
    return v.to_bytes(2 * bits, "little")


def test_palette_mode_edges_match_pillow():
    # Random blocks almost never have equal endpoints: BC1 colour 0 == colour 1
    # selects three colours and transparent black, and BC3/BC4 alpha 0 ==
    # alpha 1 the six-value palette with 0 and 255. Every value here is exact
    # (no rounding latitude), so the two decoders must agree bit for bit.
    every = list(range(4)) * 4
    red, blue, dark = struct.pack("<H", 0xF800), struct.pack("<H", 0x001F), struct.pack("<H", 5 << 11)
    bc1_blocks = [red + red + _indices(2, every),  # equal: index 3 transparent black
                  dark + red + _indices(2, every),  # 0x2800 < 0xF800: three colours, midpoint (41 + 255) / 2
                  red + blue + _indices(2, every)]  # four colours: 2/3 and 1/3 of 255
    checked = 0
    for block in bc1_blocks:
        assert (swz.decode(block, "BC1_UNORM", 4, 4).astype(int) == _pillow_rgba(block, b"DXT1")).all(), block.hex()
        checked += 1
    alpha_every = list(range(8)) * 2
    white = struct.pack("<HH", 0xFFFF, 0xFFFF) + bytes(4)
    for a0, a1 in ((100, 100), (0, 70), (70, 0)):
        alpha = bytes([a0, a1]) + _indices(3, alpha_every)
        bc3 = alpha + white
        assert (swz.decode(bc3, "BC3_UNORM", 4, 4).astype(int) == _pillow_rgba(bc3, b"DXT5")).all(), (a0, a1)
        got4 = swz.decode(alpha, "BC4_UNORM", 4, 4).astype(int)
        assert (got4[..., 0] == _pillow_rgba(alpha, b"ATI1")[..., 0]).all(), (a0, a1)
        checked += 1
    assert checked == 6


def test_bc7_reserved_mode_is_transparent_black():
    # D3D11 "BC7 format": mode 8 (a zero low byte) is reserved; the hardware
    # returns an all-zero block.
    block = bytes([0]) + bytes(range(1, 16))
    assert (swz.decode(block, "BC7_UNORM", 4, 4) == 0).all()


def test_odd_sizes_are_the_crop_of_whole_blocks():
    rng = np.random.default_rng(5)
    data = rng.integers(1, 256, size=4 * 2 * 16, dtype=np.uint8).tobytes()  # 4x2 blocks
    whole = swz.decode(data, "BC7_UNORM", 16, 8)
    part = swz.decode(data, "BC7_UNORM", 13, 7, row_pitch=64)
    assert (part == whole[:7, :13]).all()


def test_srgb_variants_keep_stored_values_and_float32_linearises():
    rng = np.random.default_rng(6)
    data = rng.integers(1, 256, size=16 * 4, dtype=np.uint8).tobytes()
    unorm = swz.decode(data, "BC7_UNORM", 16, 4)
    srgb = swz.decode(data, "BC7_UNORM_SRGB", 16, 4)
    assert (unorm == srgb).all()
    lin = swz.decode(data, "BC7_UNORM_SRGB", 16, 4, float32=True)
    v = unorm[..., :3] / 255.0
    expect = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)  # IEC 61966-2-1
    assert np.abs(lin[..., :3] - expect).max() < 1e-5
    assert np.abs(lin[..., 3] - unorm[..., 3] / 255.0).max() < 1e-6


def test_uncompressed_formats_through_their_component_maps():
    # B5G6R5: blue in bits 0-4, green 5-10, red 11-15 (DXGI_FORMAT docs).
    # 0x8410: red 16/31, green 32/63, blue 16/31 -> round(x * 255) = 132, 130, 132.
    px = np.array([0xF800, 0x07E0, 0x001F, 0x8410], dtype="<u2").tobytes()
    got = swz.decode(px, "B5G6R5_UNORM", 4, 1)
    assert got[0].tolist() == [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [132, 130, 132, 255]]
    # R16G16B16A16_FLOAT: 2.0, 0.5, -1, 1 (halves 0x4000, 0x3800, 0xBC00, 0x3C00); exposure -1 halves.
    h = np.array([0x4000, 0x3800, 0xBC00, 0x3C00], dtype="<u2").tobytes()
    assert swz.decode(h, "R16G16B16A16_FLOAT", 1, 1)[0, 0].tolist() == [255, 128, 0, 255]
    assert swz.decode(h, "R16G16B16A16_FLOAT", 1, 1, exposure=-1.0)[0, 0].tolist() == [255, 64, 0, 255]
    assert swz.decode(h, "R16G16B16A16_FLOAT", 1, 1, tone_map="reinhard")[0, 0].tolist() == [170, 85, 0, 255]
    assert swz.decode(h, "R16G16B16A16_FLOAT", 1, 1, float32=True)[0, 0].tolist() == [2.0, 0.5, -1.0, 1.0]
    # R8_SNORM: -127 -> 0, 0 -> 128 (mid-grey), 127 -> 255.
    assert swz.decode(bytes([0x81, 0, 0x7F]), "R8_SNORM", 3, 1)[0, :, 0].tolist() == [0, 128, 255]
    # Channel views.
    rgba = bytes([10, 20, 30, 40])
    assert swz.decode(rgba, "R8G8B8A8_UNORM", 1, 1, channel="g")[0, 0].tolist() == [20, 20, 20, 255]
    assert swz.decode(rgba, "R8G8B8A8_UNORM", 1, 1, channel="rgb")[0, 0].tolist() == [10, 20, 30, 255]
    assert swz.decode(rgba, "B8G8R8A8_UNORM", 1, 1)[0, 0].tolist() == [30, 20, 10, 40]


def test_depth_is_normalised_to_the_image_range():
    d = np.array([0.25, 0.5, 0.75], dtype="<f4").tobytes()
    assert swz.decode(d, "D32_FLOAT", 3, 1)[0, :, 0].tolist() == [0, 128, 255]
    assert swz.decode(np.array([1.0], dtype="<f4").tobytes(), "D32_FLOAT", 1, 1)[0, 0].tolist() == [255] * 4
    # D24_UNORM_S8_UINT: depth in bits 0-23, stencil in the top byte.
    ds = np.array([0x07000000, 0x09FFFFFF], dtype="<u4").tobytes()
    assert swz.decode(ds, "D24_UNORM_S8_UINT", 2, 1, stencil=True)[0, :, 0].tolist() == [7, 9]


def test_yuy2_bt709_limited_range():
    # Y0 U Y1 V: black (16) and white (235) with neutral chroma (128).
    data = bytes([16, 128, 235, 128])
    assert swz.decode(data, "YUY2", 2, 1)[0].tolist() == [[0, 0, 0, 255], [255, 255, 255, 255]]
    # Full range: 0 and 255.
    data = bytes([0, 128, 255, 128])
    assert swz.decode(data, "YUY2", 2, 1, yuv_full_range=True)[0].tolist() == [[0, 0, 0, 255], [255, 255, 255, 255]]


def test_refusals_name_the_problem():
    with pytest.raises(Exception, match="TYPELESS"):
        swz.decode(bytes(4), "R8G8B8A8_TYPELESS", 1, 1)
    with pytest.raises(Exception, match="planar video format is not decoded"):
        swz.decode(bytes(16), "NV11", 4, 4)
    with pytest.raises(Exception, match="needs options.palette"):
        swz.decode(bytes(4), "P8", 2, 2)
    with pytest.raises(Exception, match="input buffer is 15 bytes; the image needs 16"):
        swz.decode(bytes(15), "BC7_UNORM", 4, 4)
    with pytest.raises(Exception, match="row pitch = 8"):
        swz.decode(bytes(64), "R8G8B8A8_UNORM", 4, 2, row_pitch=8)
    with pytest.raises(ValueError, match="channel = 'x'"):
        swz.decode(bytes(4), "R8G8B8A8_UNORM", 1, 1, channel="x")
    with pytest.raises(ValueError):
        swz.decode(bytes(4), "R8G8B8A8_UNORM", 0, 1)


def test_deswizzle_decode_gives_pixels():
    layout = swz.Layout.std64k("BC1_UNORM", 40, 20)
    buf = np.random.default_rng(7).integers(0, 256, layout.size, dtype=np.uint8)
    texels = swz.deswizzle(buf, layout)
    px = swz.deswizzle(buf, layout, decode=True)
    assert px.shape == (20, 40, 4) and px.dtype == np.uint8
    assert (px == swz.decode(texels, "BC1_UNORM", 40, 20)).all()
    part = swz.deswizzle(buf, layout, box=(8, 4, 36, 20), decode=True, channel="r")
    assert part.shape == (16, 28, 4)
    assert (part[..., 0] == px[4:20, 8:36, 0]).all() and (part[..., 3] == 255).all()
    with pytest.raises(TypeError, match="only with decode=True"):
        swz.deswizzle(buf, layout, channel="r")
    with pytest.raises(ValueError, match="out= and dtype="):
        swz.deswizzle(buf, layout, decode=True, dtype=np.uint8)


def test_palettes_byte_order_and_nv12():
    # P8 with an RGB565-style palette given as B5G6R5_UNORM entries: red, blue.
    pal = np.array([0xF800, 0x001F], dtype="<u2")
    got = swz.decode(bytes([1, 0]), "P8", 2, 1, palette=pal, palette_format="B5G6R5_UNORM")
    assert got[0].tolist() == [[0, 0, 255, 255], [255, 0, 0, 255]]
    # Big-endian R16_UNORM (0xFFFF and 0x0000 read the same either way; 0x8000 does not).
    assert swz.decode(bytes([0x80, 0x00]), "R16_UNORM", 1, 1, byte_order="swap16")[0, 0, 0] == 128
    assert swz.decode(bytes([0x80, 0x00]), "R16_UNORM", 1, 1)[0, 0, 0] == 0
    # NV12: black and white columns over neutral chroma.
    px = swz.decode(bytes([16, 235, 16, 235, 128, 128]), "NV12", 2, 2)
    assert px[:, 0, :3].max() == 0 and px[:, 1, :3].min() == 255
    with pytest.raises(ValueError, match="byte_order = 'big'"):
        swz.decode(bytes(2), "R16_UNORM", 1, 1, byte_order="big")


def test_tiny_input_is_refused_before_the_output_is_allocated():
    # 16 bytes for 100000 x 100000 texels: the buffer is named, not a 37 GiB MemoryError.
    with pytest.raises(ValueError, match="input buffer is 16 bytes"):
        swz.decode(bytes(16), "R8_UNORM", 100000, 100000)
    with pytest.raises(ValueError, match="input buffer is 16 bytes"):
        swz.decode(bytes(16), "R8_UNORM", 2**32 - 1, 2**32 - 1, float32=True)


def test_deswizzle_decode_refuses_one_plane_of_nv12():
    layout = swz.Layout.row_major("NV12", 16, 16)
    buf = bytes(layout.size)
    for sub in (0, 1):
        with pytest.raises(ValueError, match=f"subresource {sub} is plane {sub} alone"):
            swz.deswizzle(buf, layout, sub, decode=True)


def test_palette_format_holds_one_texel_an_element():
    # 4 bytes of R8G8_B8G8 are two palette entries, not one: refused rather than losing entry 1.
    with pytest.raises(ValueError, match="one texel an element"):
        swz.decode(bytes([0, 1]), "P8", 2, 1, palette=bytes([255, 0, 0, 255]), palette_format="R8G8_B8G8_UNORM")


def etc2_planar_block() -> bytes:
    """The planar-mode example of the Khronos Data Format Specification's ETC2
    chapter: origin (12, 64, 62), horizontal (50, 5, 37), vertical (40, 112, 45),
    assembled from its bit layout (g); big-endian, byte q0 first."""
    fields = [(63, 63, 0), (62, 57, 12), (56, 56, 1), (55, 55, 0), (54, 49, 0), (48, 48, 1), (47, 45, 7),
              (44, 43, 3), (42, 42, 0), (41, 39, 6), (38, 34, 25), (33, 33, 1), (32, 32, 0), (31, 25, 5),
              (24, 19, 37), (18, 13, 40), (12, 6, 112), (5, 0, 45)]
    w = 0
    for hi, lo, v in fields:
        w |= (v & ((1 << (hi - lo + 1)) - 1)) << lo
    return w.to_bytes(8, "big")


def test_etc2_eac_and_astc_through_decode():
    # The ETC2 planar example's texels (x, y) = (0, 0), (3, 0), (0, 3), (3, 3).
    got = swz.decode(etc2_planar_block(), "ETC2_R8G8B8_UNORM", 4, 4)
    assert got[0, 0].tolist() == [48, 129, 251, 255]
    assert got[0, 3].tolist() == [164, 40, 175, 255]
    assert got[3, 0].tolist() == [134, 201, 199, 255]
    assert got[3, 3].tolist() == [250, 112, 124, 255]
    # The unsigned R11 EAC example: base 103, multiplier 2, table 13, every index 3 -> 668 / 2047.
    r11 = ((103 << 56) | (2 << 52) | (13 << 48) | int("011" * 16, 2)).to_bytes(8, "big")
    red = swz.decode(r11, "EAC_R11_UNORM", 4, 4, float32=True)[..., 0]
    assert np.allclose(red, 668 / 2047, atol=1e-7)
    # ASTC: a void-extent block is its UNORM16 colour (ASTC specification, "Void-Extent Blocks").
    block = bytes([0xFC, 0xFD] + [0xFF] * 6) + struct.pack("<4H", 10 * 257, 200 * 257, 77 * 257, 65535)
    if not swz.decode_supports("ASTC_5x4_UNORM"):
        with pytest.raises(ValueError, match="built without libastcenc"):
            swz.decode(block, "ASTC_5x4_UNORM", 5, 4)
        pytest.skip("swz was built without libastcenc")
    assert (swz.decode(block, "ASTC_5x4_UNORM", 3, 2) == [10, 200, 77, 255]).all()
