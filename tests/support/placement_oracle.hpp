// Test oracle: where each subresource of a texture goes, written from the
// public rules and never from swz::Layout (no call into the library's
// placement or address code; only the TextureDesc, FormatInfo and Pattern
// data structures are read).
//
//  * row-major: D3D12 GetCopyableFootprints (d3d12.h
//    D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT = 512, D3D12_TEXTURE_DATA_PITCH_ALIGNMENT
//    = 256): subresources in D3D12CalcSubresource order (mip + slice * mips),
//    each at the running size aligned to 512, row pitch = row bytes aligned to
//    256, slice pitch = rows x row pitch, total = row pitch x (rows x depth - 1)
//    + row bytes.
//  * standard swizzle: the D3D11.3 functional spec's tile shapes (§5.9.2.8,
//    64 KB and 4 KB tiles per element size, 2D and 3D), tiles row-major with no
//    gaps inside a subresource (x, then y, then z), each subresource on a tile
//    boundary in subresource order.
//  * a pattern layout: the block is 2^n bytes (n valid interleave entries), its
//    extent per channel 2^(entries of that channel); the tightest pitches are
//    whole blocks; stacked depth (STACK_DEPTH_SLICES) puts slice z at row
//    z x (height rounded up to the block's rows); subresources on the block
//    size in subresource order.
//  * NVIDIA block linear: tegra_swizzle (blockheight.rs block_height_mip0,
//    mip_block_height; blockdepth.rs; surface.rs swizzled_surface_size) and
//    Ryujinx SizeCalculator: a GOB is 64 bytes x 8 rows = 512 bytes; a block is
//    1 x bh x bd GOBs; per level bh and bd are the level-0 values clamped to the
//    next power of two of the level's height in GOBs (depth in slices); levels
//    packed; array layers at the layer size aligned to level 0's (clamped) block.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "swz/format.hpp"
#include "swz/layout.hpp"
#include "swz/pattern.hpp"

namespace swz_oracle {

struct Place {
  uint64_t offset = 0, row_pitch = 0, depth_pitch = 0, stack_rows = 0, size = 0;
  uint32_t width_el = 0, height_el = 0, depth = 0, element_bytes = 0;
  bool size_exact = true;  // false: postamble terms above the block make the span a bound only
};

struct Resource {
  std::vector<Place> subs;  // in subresource order
  uint64_t size = 0;
  bool ok = true;  // false: the oracle does not describe this case
};

inline uint64_t up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
inline uint64_t cdiv(uint64_t v, uint64_t a) { return (v + a - 1) / a; }
inline uint64_t next_pow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p *= 2;
  return p;
}

/// Level dimensions in elements (texels, or 4x4 blocks of a BC format).
inline void level_dims(const swz::TextureDesc& d, uint32_t m, uint32_t* w_el, uint32_t* h_el, uint32_t* depth) {
  const uint32_t w = std::max(1u, d.width >> m), h = std::max(1u, d.height >> m);
  *w_el = static_cast<uint32_t>(cdiv(w, d.format.block_width));
  *h_el = static_cast<uint32_t>(cdiv(h, d.format.block_height));
  *depth = d.dimension == swz::Dimension::Texture3D ? std::max(1u, d.depth >> m) : 1u;
}

/// Row-major (D3D12 GetCopyableFootprints), single-plane formats.
inline Resource row_major(const swz::TextureDesc& d) {
  Resource r;
  if (d.format.planes != 1) {
    r.ok = false;
    return r;
  }
  const uint32_t eb = d.format.element_bytes;
  uint64_t running = 0;
  for (uint32_t slice = 0; slice < d.array_size; ++slice)
    for (uint32_t m = 0; m < d.mip_levels; ++m) {
      Place p;
      level_dims(d, m, &p.width_el, &p.height_el, &p.depth);
      p.element_bytes = eb;
      const uint64_t row_bytes = uint64_t{p.width_el} * eb;
      p.row_pitch = up(row_bytes, 256);
      p.depth_pitch = p.row_pitch * p.height_el;
      p.size = p.row_pitch * (uint64_t{p.height_el} * p.depth - 1) + row_bytes;
      p.offset = up(running, 512);
      running = p.offset + p.size;
      r.subs.push_back(p);
    }
  r.size = running;
  return r;
}

/// Tile shape in elements of the standard swizzles (D3D11.3 spec §5.9.2.8;
/// 4 KB 3D only for the 1- and 8-byte shapes that Intel and AMD agree on).
/// Returns false when there is none.
inline bool std_tile(bool is64k, bool is3d, uint32_t eb, uint32_t* tx, uint32_t* ty, uint32_t* tz) {
  struct Row {
    uint32_t eb, x, y, z;
  };
  static const Row k64_2d[] = {{1, 256, 256, 1}, {2, 256, 128, 1}, {4, 128, 128, 1}, {8, 128, 64, 1}, {16, 64, 64, 1}};
  static const Row k64_3d[] = {{1, 64, 32, 32}, {2, 32, 32, 32}, {4, 32, 32, 16}, {8, 32, 16, 16}, {16, 16, 16, 16}};
  static const Row k4_2d[] = {{1, 64, 64, 1}, {2, 64, 32, 1}, {4, 32, 32, 1}, {8, 32, 16, 1}, {16, 16, 16, 1}};
  static const Row k4_3d[] = {{1, 16, 16, 16}, {8, 8, 8, 8}};
  const Row* rows = is64k ? (is3d ? k64_3d : k64_2d) : (is3d ? k4_3d : k4_2d);
  const size_t n = is64k ? 5 : (is3d ? 2 : 5);
  for (size_t i = 0; i < n; ++i)
    if (rows[i].eb == eb) {
      *tx = rows[i].x;
      *ty = rows[i].y;
      *tz = rows[i].z;
      return true;
    }
  return false;
}

/// std64k / std4k: whole tiles, row-major, no gaps; each subresource on a tile.
/// With a packed mip tail (D3D12_PACKED_MIP_INFO: mips from `standard_mips`
/// on are packed), each array slice's packed mips share `tail_tiles` whole
/// tiles right after that slice's standard mips.
inline Resource standard_swizzle(const swz::TextureDesc& d, bool is64k, uint32_t standard_mips = ~0u,
                                 uint32_t tail_tiles = 0) {
  Resource r;
  const uint32_t eb = d.format.element_bytes;
  const uint64_t T = is64k ? 65536 : 4096;
  uint32_t tx, ty, tz;
  if (d.format.planes != 1 || d.samples != 1 ||
      !std_tile(is64k, d.dimension == swz::Dimension::Texture3D, eb, &tx, &ty, &tz)) {
    r.ok = false;
    return r;
  }
  if (uint64_t{tx} * ty * tz * eb != T) {  // the table itself
    r.ok = false;
    return r;
  }
  uint64_t running = 0;
  for (uint32_t slice = 0; slice < d.array_size; ++slice)
    for (uint32_t m = 0; m < d.mip_levels; ++m) {
      Place p;
      level_dims(d, m, &p.width_el, &p.height_el, &p.depth);
      p.element_bytes = eb;
      const uint64_t nx = cdiv(p.width_el, tx), ny = cdiv(p.height_el, ty), nz = cdiv(p.depth, tz);
      if (m >= standard_mips) {  // the packed tail: opaque, tail_tiles tiles
        if (m == standard_mips) running = up(running, T) + uint64_t{tail_tiles} * T;
        p.offset = running - uint64_t{tail_tiles} * T;
        p.size = uint64_t{tail_tiles} * T;
        p.row_pitch = nx * T;
        p.depth_pitch = nx * ny * T;
        r.subs.push_back(p);
        continue;
      }
      p.row_pitch = nx * T;
      p.depth_pitch = nx * ny * T;
      p.size = nx * ny * nz * T;
      p.offset = up(running, T);
      running = p.offset + p.size;
      r.subs.push_back(p);
    }
  r.size = running;
  return r;
}

/// Block shape of a pattern, from its interleave entries (rule 2).
struct BlockShape {
  unsigned bits = 0;        // n: valid prefix
  uint64_t ext[4] = {1, 1, 1, 1};  // X in bytes, Y rows, Z slices, samples
  bool stacked = false;
  bool high_postamble = false;  // a postamble term on an address bit at or above the block
};

inline BlockShape block_shape(const swz::Pattern& p) {
  BlockShape b;
  while (b.bits < 32 && p.interleave[b.bits].valid) ++b.bits;
  for (unsigned i = 0; i < b.bits; ++i) b.ext[p.interleave[i].channel & 3] *= 2;
  b.stacked = (p.flags & swz::kFlagStackDepthSlices) != 0;
  for (unsigned i = 8; i < 24; ++i)
    for (int j = 0; j < 2; ++j)
      if (p.postamble[j][i].valid && i >= b.bits) b.high_postamble = true;
  return b;
}

/// A pattern layout (LayoutKind::Pattern) with the tightest pitches, single
/// plane. Sizes are exact unless a postamble term moves whole blocks.
inline Resource pattern_layout(const swz::TextureDesc& d, const swz::Pattern& pat) {
  Resource r;
  if (d.format.planes != 1) {
    r.ok = false;
    return r;
  }
  const BlockShape b = block_shape(pat);
  const uint64_t BB = uint64_t{1} << b.bits;
  const uint32_t eb = d.format.element_bytes;
  uint64_t running = 0;
  for (uint32_t slice = 0; slice < d.array_size; ++slice)
    for (uint32_t m = 0; m < d.mip_levels; ++m) {
      Place p;
      level_dims(d, m, &p.width_el, &p.height_el, &p.depth);
      p.element_bytes = eb;
      const uint64_t blocks_x = cdiv(uint64_t{p.width_el} * eb, b.ext[0]);
      p.row_pitch = blocks_x * BB;
      uint64_t blocks_y, blocks_z = 1;
      if (b.stacked) {
        p.stack_rows = up(p.height_el, b.ext[1]);
        blocks_y = cdiv(p.stack_rows * (p.depth - 1) + p.height_el, b.ext[1]);
      } else {
        blocks_y = cdiv(p.height_el, b.ext[1]);
        blocks_z = cdiv(p.depth, b.ext[2]);
        p.depth_pitch = blocks_y * p.row_pitch;
      }
      p.size = (blocks_z - 1) * p.depth_pitch + blocks_y * p.row_pitch;
      p.size_exact = !b.high_postamble;
      p.offset = up(running, BB);
      running = p.offset + p.size;
      r.subs.push_back(p);
    }
  r.size = running;
  return r;
}

// ---- NVIDIA block linear -------------------------------------------------

/// tegra_swizzle block_height_mip0: the level-0 block height (GOBs) inferred
/// from the height in elements.
inline uint32_t tegra_block_height_mip0(uint32_t h) {
  const uint32_t hh = h + h / 2;
  return hh >= 128 ? 16 : hh >= 64 ? 8 : hh >= 32 ? 4 : hh >= 16 ? 2 : 1;
}

/// tegra_swizzle block_depth: the level-0 block depth inferred from the depth.
inline uint32_t tegra_block_depth(uint32_t d) {
  const uint32_t dd = d + d / 2;
  return dd >= 16 ? 16 : dd >= 8 ? 8 : dd >= 4 ? 4 : dd >= 2 ? 2 : 1;
}

/// A level's block height: the level-0 value, but no taller than the next
/// power of two of the level's height in GOBs (the closed form of
/// mip_block_height's "halve while the level fits in half a block").
inline uint32_t level_block_height(uint32_t bh0, uint32_t h_el) {
  return static_cast<uint32_t>(std::min<uint64_t>(bh0, next_pow2(cdiv(h_el, 8))));
}
inline uint32_t level_block_depth(uint32_t bd0, uint32_t depth) {
  return static_cast<uint32_t>(std::min<uint64_t>(bd0, next_pow2(depth)));
}

struct NvPlace : Place {
  uint32_t bh = 1, bd = 1;
};

struct NvResource {
  std::vector<NvPlace> subs;
  uint64_t size = 0, layer_stride = 0;
};

/// nv-block-linear with gob=tegra. bh0/bd0 = 0: inferred as tegra_swizzle does
/// (3D textures of depth > 1: bh0 = 1 and bd0 = block_depth(depth)).
inline NvResource nv_block_linear(const swz::TextureDesc& d, uint32_t bh0 = 0, uint32_t bd0 = 0) {
  NvResource r;
  const uint32_t eb = d.format.element_bytes;
  uint32_t w0, h0, d0;
  level_dims(d, 0, &w0, &h0, &d0);
  const bool is3d = d.dimension == swz::Dimension::Texture3D;
  if (bh0 == 0) bh0 = is3d && d0 > 1 ? 1 : tegra_block_height_mip0(h0);
  if (bd0 == 0) bd0 = is3d ? tegra_block_depth(d0) : 1;
  uint64_t layer = 0;
  std::vector<NvPlace> one;
  for (uint32_t m = 0; m < d.mip_levels; ++m) {
    NvPlace p;
    level_dims(d, m, &p.width_el, &p.height_el, &p.depth);
    p.element_bytes = eb;
    p.bh = level_block_height(bh0, p.height_el);
    p.bd = level_block_depth(bd0, p.depth);
    const uint64_t gobs_x = cdiv(uint64_t{p.width_el} * eb, 64);
    const uint64_t block = 512ull * p.bh * p.bd;
    p.row_pitch = gobs_x * block;
    p.depth_pitch = cdiv(p.height_el, 8ull * p.bh) * p.row_pitch;
    p.size = cdiv(p.depth, p.bd) * p.depth_pitch;
    p.offset = layer;
    layer += p.size;
    one.push_back(p);
  }
  // tegra_swizzle arrays.rs align_layer_size: the level-0 block after the
  // same clamping (Ryujinx AlignLayerSize).
  r.layer_stride = d.array_size > 1 ? up(layer, 512ull * one[0].bh * one[0].bd) : layer;
  for (uint32_t slice = 0; slice < d.array_size; ++slice)
    for (NvPlace p : one) {
      p.offset += slice * r.layer_stride;
      r.subs.push_back(p);
    }
  r.size = r.layer_stride * d.array_size;
  return r;
}

}  // namespace swz_oracle
