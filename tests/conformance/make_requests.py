#!/usr/bin/env python3
"""Writes requests.json, the conformance table (docs/ARCHITECTURE.md rule 13):
edit the cases here and rerun; the runners read the JSON."""
import json
import pathlib
L = {
  "rgba8_std4k": {"name": "std4k", "format": "R8G8B8A8_UNORM", "width": 64, "height": 64},
  "bc1_std4k": {"name": "std4k", "format": "BC1_UNORM", "width": 60, "height": 60},
  "cond_post": {"name": "pattern:X0 X1 X2 X3 X4 X5 Y0 Y1 Y2 Y3 cond-post", "format": "R8G8B8A8_UNORM", "width": 32, "height": 32},
  "rowmajor_mips": {"name": "row-major", "format": "R8G8B8A8_UNORM", "width": 20, "height": 12, "mips": 3},
  "std64k_3d": {"name": "std64k", "format": "R8G8B8A8_UNORM", "width": 16, "height": 16, "depth": 8, "dim": "3d"},
  "r8_pattern": {"name": "pattern:X0 Y0 X1 Y1 X2^Y3 Y2 X3 Y3", "format": "R8_UNORM", "width": 40, "height": 24},
  "rgba32f_ps3": {"name": "ps3-swizzled", "format": "R32G32B32A32_FLOAT", "width": 16, "height": 16},
  "rgba8_3ds": {"name": "3ds-tiled", "format": "R8G8B8A8_UNORM", "width": 32, "height": 16},
  "etc2_std4k": {"name": "std4k", "format": "ETC2_R8G8B8A8_UNORM", "width": 13, "height": 7},
  "astc8x5_std4k": {"name": "std4k", "format": "ASTC_8x5_UNORM", "width": 20, "height": 10},
}
C = []
def case(name, layout, op, expect, **kw):
    d = {"name": name, "layout": layout, "op": op, "expect": expect}
    d.update(kw)
    C.append(d)
WHOLE = 64*64*4
B16 = [0, 0, 0, 16, 16, 1]
for op in ("write", "read"):
    side = "source" if op == "write" else "destination"
    case(f"{op}: whole subresource", "rgba8_std4k", op, "ok", lin_size=WHOLE, cli=True, gpu=True)
    case(f"{op}: 16x16 box at the origin", "rgba8_std4k", op, "ok", box=B16, lin_size=1024, gpu=True)
    case(f"{op}: box at the far corner, row pitch 300", "rgba8_std4k", op, "ok", box=[40, 50, 0, 64, 64, 1], row_pitch=300, lin_size=13*300 + 96, gpu=True)
    case(f"{op}: box right one past the edge", "rgba8_std4k", op, "out_of_range", box=[0, 0, 0, 65, 16, 1], lin_size=WHOLE*2, gpu=True)
    case(f"{op}: box bottom one past the edge", "rgba8_std4k", op, "out_of_range", box=[0, 0, 0, 16, 65, 1], lin_size=WHOLE*2, gpu=True)
    case(f"{op}: box back one past the edge", "rgba8_std4k", op, "out_of_range", box=[0, 0, 0, 16, 16, 2], lin_size=WHOLE*2, gpu=True)
    case(f"{op}: empty box is a no-op", "rgba8_std4k", op, "ok", box=[10, 10, 0, 10, 20, 1], lin_size=0, gpu=True)
    case(f"{op}: subresource 1 of 1", "rgba8_std4k", op, "out_of_range", sub=1, lin_size=WHOLE, cli=op == "read", gpu=True)
    case(f"{op}: row pitch one below a row of the box", "rgba8_std4k", op, "invalid_argument", box=B16, row_pitch=63, lin_size=4096, gpu=True)
    case(f"{op}: row pitch exactly a row of the box", "rgba8_std4k", op, "ok", box=B16, row_pitch=64, lin_size=1024, gpu=True)
    case(f"{op}: {side} one byte short", "rgba8_std4k", op, "buffer_too_small", box=B16, lin_size=1023, gpu=True)
    case(f"{op}: resource one byte short", "rgba8_std4k", op, "buffer_too_small", lin_size=WHOLE, res_delta=-1, cli=op == "read", gpu=True)
    case(f"{op}: row pitch overflows 64 bits", "rgba8_std4k", op, "overflow", box=B16, row_pitch=2**63, lin_size=2**64 - 1)
    case(f"{op}: linear buffer is the resource (exact overlap)", "rgba8_std4k", op, "invalid_argument", lin_size=WHOLE, lin_at=0, gpu=True)
    case(f"{op}: linear buffer 16 bytes into the resource", "rgba8_std4k", op, "invalid_argument", lin_size=WHOLE, lin_at=16, gpu=True)
    case(f"{op}: linear buffer ends 16 bytes into the resource", "rgba8_std4k", op, "invalid_argument", lin_size=WHOLE, lin_at=16 - WHOLE, gpu=True)
    case(f"{op}: linear buffer right after the resource", "rgba8_std4k", op, "ok", lin_size=WHOLE, lin_at=WHOLE, gpu=True)
    case(f"{op}: linear buffer right before the resource", "rgba8_std4k", op, "ok", lin_size=WHOLE, lin_at=-WHOLE, gpu=True)
    case(f"{op}: BC left not on a block edge", "bc1_std4k", op, "invalid_argument", box=[2, 0, 0, 16, 16, 1], lin_size=4096)
    case(f"{op}: BC top not on a block edge", "bc1_std4k", op, "invalid_argument", box=[0, 2, 0, 16, 16, 1], lin_size=4096)
    case(f"{op}: BC right neither a block edge nor the subresource edge", "bc1_std4k", op, "invalid_argument", box=[0, 0, 0, 18, 16, 1], lin_size=4096)
    case(f"{op}: BC bottom neither a block edge nor the subresource edge", "bc1_std4k", op, "invalid_argument", box=[0, 0, 0, 16, 18, 1], lin_size=4096)
    case(f"{op}: BC box to the subresource edge", "bc1_std4k", op, "ok", box=[48, 48, 0, 60, 60, 1], lin_size=2*3*8 + 3*8, gpu=True)
    case(f"{op}: BC whole subresource", "bc1_std4k", op, "ok", lin_size=15*15*8, cli=True, gpu=True)
    case(f"{op}: conditional postamble refused", "cond_post", op, "unsupported", lin_size=32*32*4, cli=True, gpu=True)
    case(f"{op}: 3D depth pitch one below a slice", "std64k_3d", op, "invalid_argument", box=[0, 0, 0, 16, 16, 8], depth_pitch=1023, lin_size=2**20, gpu=True)
    case(f"{op}: 3D box of slices 2..6, depth pitch 1100", "std64k_3d", op, "ok", box=[0, 0, 2, 16, 16, 6], depth_pitch=1100, lin_size=3*1100 + 1024, gpu=True)
    case(f"{op}: 3D box back one past the depth", "std64k_3d", op, "out_of_range", box=[0, 0, 2, 16, 16, 9], lin_size=2**20, gpu=True)
    case(f"{op}: 3D whole", "std64k_3d", op, "ok", lin_size=16*16*4*8, cli=True, gpu=True)
    case(f"{op}: XOR pattern, R8, odd box", "r8_pattern", op, "ok", box=[3, 5, 0, 37, 23, 1], row_pitch=41, lin_size=17*41 + 34, gpu=True)
    case(f"{op}: row-major mip 2", "rowmajor_mips", op, "ok", sub=2, lin_size=5*3*4, gpu=True)
    case(f"{op}: row-major mip 3 of 3", "rowmajor_mips", op, "out_of_range", sub=3, lin_size=64)
    case(f"{op}: PS3 Morton, 16-byte elements, whole", "rgba32f_ps3", op, "ok", lin_size=16*16*16, cli=True)
    case(f"{op}: PS3 Morton, odd box at the far corner", "rgba32f_ps3", op, "ok", box=[5, 9, 0, 16, 16, 1], lin_size=7*11*16)
    case(f"{op}: PS3 Morton, resource one byte short", "rgba32f_ps3", op, "buffer_too_small", lin_size=16*16*16, res_delta=-1)
    case(f"{op}: 3DS tiles, box touching the bottom edge", "rgba8_3ds", op, "ok", box=[8, 8, 0, 32, 16, 1], lin_size=24*8*4)
    case(f"{op}: 3DS tiles, {side} one byte short", "rgba8_3ds", op, "buffer_too_small", lin_size=32*16*4 - 1)
    case(f"{op}: ETC2 box to the subresource edge", "etc2_std4k", op, "ok", box=[4, 4, 0, 13, 7, 1], lin_size=3*16)
    case(f"{op}: ETC2 right neither a block edge nor the subresource edge", "etc2_std4k", op, "invalid_argument", box=[0, 0, 0, 10, 4, 1], lin_size=4096)
    case(f"{op}: ETC2 whole", "etc2_std4k", op, "ok", lin_size=4*2*16, cli=True)
    case(f"{op}: ASTC 8x5 box on its block grid", "astc8x5_std4k", op, "ok", box=[8, 5, 0, 20, 10, 1], lin_size=2*16)
    case(f"{op}: ASTC 8x5 left not on an 8-texel edge", "astc8x5_std4k", op, "invalid_argument", box=[4, 0, 0, 16, 5, 1], lin_size=4096)
RM = 960 + 240 + 60
for op in ("swizzle_surface", "deswizzle_surface"):
    case(f"{op}: row-major mips", "rowmajor_mips", op, "ok", lin_size=RM, cli=True)
    case(f"{op}: linear one byte short", "rowmajor_mips", op, "buffer_too_small", lin_size=RM - 1, cli=op == "swizzle_surface")
    case(f"{op}: resource one byte short", "rowmajor_mips", op, "buffer_too_small", lin_size=RM, res_delta=-1, cli=op == "deswizzle_surface")
    case(f"{op}: linear 16 bytes into the resource", "rowmajor_mips", op, "invalid_argument", lin_size=RM, lin_at=16)
    case(f"{op}: linear ends inside the last mip", "rowmajor_mips", op, "invalid_argument", lin_size=RM, lin_at="end-16")
    case(f"{op}: conditional postamble refused", "cond_post", op, "unsupported", lin_size=32*32*4, cli=True)
R = lambda dst, box, dsub=0, ssub=0: {"dst_sub": dsub, "dst": dst, "src_sub": ssub, "box": box}
case("copy_regions: one region between two buffers", "rgba8_std4k", "copy_regions", "ok", regions=[R([32, 32, 0], [0, 0, 0, 16, 16, 1])])
case("copy_regions: two regions overlapping in the destination", "rgba8_std4k", "copy_regions", "invalid_argument", regions=[R([0, 0, 0], [0, 0, 0, 16, 16, 1]), R([15, 15, 0], [0, 0, 0, 4, 4, 1])])
case("copy_regions: boxes of different sizes overlapping in the destination", "rgba8_std4k", "copy_regions", "invalid_argument", regions=[R([0, 0, 0], [0, 0, 0, 16, 16, 1]), R([8, 10, 0], [0, 0, 0, 4, 40, 1])])
case("copy_regions: destination regions touching, not overlapping", "rgba8_std4k", "copy_regions", "ok", regions=[R([0, 0, 0], [0, 0, 0, 16, 16, 1]), R([16, 0, 0], [0, 0, 0, 16, 16, 1])])
case("copy_regions: one buffer, region over its own source", "rgba8_std4k", "copy_regions", "invalid_argument", src_at=0, regions=[R([8, 8, 0], [0, 0, 0, 16, 16, 1])])
case("copy_regions: one buffer, disjoint source and destination", "rgba8_std4k", "copy_regions", "ok", src_at=0, regions=[R([32, 32, 0], [0, 0, 0, 16, 16, 1])])
case("copy_regions: one buffer, region writes what another reads", "rgba8_std4k", "copy_regions", "invalid_argument", src_at=0, regions=[R([32, 32, 0], [0, 0, 0, 16, 16, 1]), R([0, 0, 0], [40, 40, 0, 48, 48, 1])])
case("copy_regions: source buffer 16 bytes into the destination", "rgba8_std4k", "copy_regions", "invalid_argument", src_at=16, regions=[R([32, 32, 0], [0, 0, 0, 16, 16, 1])])
case("copy_regions: destination out of the subresource", "rgba8_std4k", "copy_regions", "out_of_range", regions=[R([56, 0, 0], [0, 0, 0, 16, 16, 1])])
case("copy_regions: conditional postamble refused", "cond_post", "copy_regions", "unsupported", regions=[R([0, 0, 0], [0, 0, 0, 16, 16, 1])])
case("copy_regions: source subresource out of range", "rgba8_std4k", "copy_regions", "out_of_range", regions=[R([0, 0, 0], None, 0, 1)])
T = lambda start, num, off, size, d="to_buffer", at=None: {"start": start, "num": num, "buffer_offset": off, "buffer_size": size, "dir": d, "buf_at": at}
case("copy_tiles: two tiles to a buffer", "rgba8_std4k", "copy_tiles", "ok", tiles=T([0, 0, 0], 2, 16, 16 + 8192))
case("copy_tiles: tiles back to the resource", "rgba8_std4k", "copy_tiles", "ok", tiles=T([1, 1, 0], 1, 0, 4096, "to_resource"))
case("copy_tiles: buffer one byte short", "rgba8_std4k", "copy_tiles", "buffer_too_small", tiles=T([0, 0, 0], 2, 16, 16 + 8191))
case("copy_tiles: tile outside the grid", "rgba8_std4k", "copy_tiles", "out_of_range", tiles=T([2, 0, 0], 1, 0, 4096))
case("copy_tiles: run past the last tile", "rgba8_std4k", "copy_tiles", "out_of_range", tiles=T([1, 1, 0], 2, 0, 8192))
case("copy_tiles: buffer inside the resource", "rgba8_std4k", "copy_tiles", "invalid_argument", tiles=T([0, 0, 0], 1, 0, 4096, "to_buffer", 4096))
case("copy_tiles: conditional postamble refused", "cond_post", "copy_tiles", "unsupported", tiles=T([0, 0, 0], 1, 0, 1024))
case("offset: element (17, 3)", "rgba8_std4k", "offset", "ok", coords=[17, 3, 0, 0], cli=True)
case("offset: x one past the width", "rgba8_std4k", "offset", "out_of_range", coords=[64, 0, 0, 0], cli=True)
case("offset: y one past the height", "rgba8_std4k", "offset", "out_of_range", coords=[0, 64, 0, 0], cli=True)
case("offset: conditional postamble refused", "cond_post", "offset", "unsupported", coords=[1, 1, 0, 0], cli=True)
case("locate: byte 4100", "rgba8_std4k", "locate", "ok", offset_B=4100, cli=True)
case("locate: conditional postamble refused", "cond_post", "locate", "unsupported", offset_B=4, cli=True)
doc = {
  "about": "One table of good, bad and borderline requests, run through every entry point (C++ API, C API, Python, the swz command, the GPU path). Each entry point must give the expected verdict, and where it accepts, the bytes of the spec's reference routine. Sizes in bytes; boxes are [left, top, front, right, bottom, back] in texels; lin_at / src_at / buf_at place that buffer at this byte offset from the resource (or destination) buffer, so that the two overlap or touch; res_delta is added to the layout's size. cli / gpu: the case is expressible through that entry point.",
  "formats": {"R8G8B8A8_UNORM": [4, 1, 1], "BC1_UNORM": [8, 4, 4], "R8_UNORM": [1, 1, 1], "R32G32B32A32_FLOAT": [16, 1, 1],
              "ETC2_R8G8B8A8_UNORM": [16, 4, 4], "ASTC_8x5_UNORM": [16, 8, 5]},
  "layouts": L,
  "cases": C,
}
json.dump(doc, open(pathlib.Path(__file__).with_name("requests.json"), "w"), indent=1)
print(len(C))
