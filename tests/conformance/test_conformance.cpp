// The conformance table (tests/conformance/requests.json) through the C++ API
// and the C API: every case must get its expected verdict from both, leave
// the memory untouched when refused, and where accepted produce the bytes of
// an oracle built from the specification's reference routine
// (swz::reference_offset, per bit) and the table's own format facts.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "conformance_table.hpp"
#include "swz/swz.h"
#include "swz/swz.hpp"

namespace {
using namespace swz;
using namespace swz::conformance;

// Both forms of one layout of the table.
struct Made {
  Layout cpp;
  swz_layout* c = nullptr;
  ~Made() { swz_layout_destroy(c); }
};

void make(const json& l, Made* m) {
  TextureDesc d;
  ASSERT_NO_FATAL_FAILURE(make_layout(l, &m->cpp, &d));
  swz_texture_desc cd{};
  const std::string fmt = l["format"];
  cd.format = fmt.c_str();
  cd.dimension = d.dimension == Dimension::Texture3D ? SWZ_TEXTURE_3D : SWZ_TEXTURE_2D;
  cd.width = d.width;
  cd.height = d.height;
  cd.depth = d.depth;
  cd.array_size = 1;
  cd.mip_levels = d.mip_levels;
  cd.samples = 1;
  const std::string name = l["name"];
  ASSERT_EQ(swz_layout_create(name.c_str(), &cd, nullptr, &m->c), SWZ_OK) << swz_last_error();
}

// Table facts: element bytes and block shape of a format.
struct Fmt {
  uint32_t eb, bw, bh;
};
Fmt fmt_of(const json& layout) {
  const json& f = table()["formats"][layout["format"].get<std::string>()];
  return {f[0], f[1], f[2]};
}

// The element box of a texel box (null = the whole subresource), by the table's facts.
struct EBox {
  uint64_t x0, y0, z0, w, h, d;
};
EBox element_box(const SubresourceLayout& s, const Fmt& f, const json& box) {
  if (box.is_null()) return {0, 0, 0, (s.width + f.bw - 1) / f.bw, (s.height + f.bh - 1) / f.bh, s.depth};
  const uint64_t l = box[0], t = box[1], fr = box[2], r = box[3], b = box[4], k = box[5];
  if (r <= l || b <= t || k <= fr) return {0, 0, 0, 0, 0, 0};
  return {l / f.bw, t / f.bh, fr, (r + f.bw - 1) / f.bw - l / f.bw, (b + f.bh - 1) / f.bh - t / f.bh, k - fr};
}


// The oracle's address of byte `xb` of row (y, z) of a subresource.
uint64_t oracle_offset(const Layout& L, uint32_t sub, uint64_t xb, uint64_t y, uint64_t z, uint64_t sample = 0) {
  const SubresourceLayout& s = L.sub(sub);
  AddressParams a;
  a.row_pitch = s.row_pitch;
  a.depth_pitch_B = s.depth_pitch_B;
  a.stack_rows = s.stack_rows;
  for (int i = 0; i < 3; ++i) a.pre_swizzle[i] = s.pre_swizzle[i];
  return s.offset + reference_offset(L.patterns()[s.pattern_slot], xb, y, z, sample, a);
}

// Moves every byte of an element box between a linear window and a subresource, by the oracle.
void oracle_box(const Layout& L, uint32_t sub, const EBox& e, uint32_t eb, uint64_t rp, uint64_t dp, uint8_t* res,
                uint8_t* lin, bool to_res) {
  for (uint64_t z = 0; z < e.d; ++z)
    for (uint64_t y = 0; y < e.h; ++y)
      for (uint64_t xb = 0; xb < e.w * eb; ++xb) {
        uint8_t* r = res + oracle_offset(L, sub, (e.x0 * eb) + xb, e.y0 + y, e.z0 + z);
        uint8_t* l = lin + z * dp + y * rp + xb;
        if (to_res)
          *r = *l;
        else
          *l = *r;
      }
}

using swz::conformance::verdict;
std::string verdict(swz_status s) { return s == SWZ_OK ? "ok" : swz_status_name(s); }

swz_box c_box(const json& b) { return swz_box{b[0], b[1], b[2], b[3], b[4], b[5]}; }
Box cpp_box(const json& b) { return box_of(b); }

struct Outcome {
  std::string verdict;
  std::vector<uint8_t> arena;
  uint64_t value = 0;  // offset / locate answers
};

// Runs one case through one entry point (C++ when `c` is false).
Outcome run(const json& k, const Made& m, Memory mem, bool c) {
  const std::string op = k["op"];
  const uint32_t sub = k.value("sub", 0u);
  const json box = k.value("box", json());
  const uint64_t rp = k.value("row_pitch", uint64_t{0}), dp = k.value("depth_pitch", uint64_t{0});
  const Layout& L = m.cpp;
  Outcome o;
  if (op == "write" || op == "read") {
    swz_box cb{};
    Box b{};
    if (!box.is_null()) cb = c_box(box), b = cpp_box(box);
    const bool w = op == "write";
    if (c)
      o.verdict = verdict(w ? swz_write_subresource(m.c, mem.res(), mem.res_size, sub, box.is_null() ? nullptr : &cb,
                                                    mem.lin(), mem.lin_size, rp, dp, nullptr)
                            : swz_read_subresource(m.c, mem.lin(), mem.lin_size, rp, dp, mem.res(), mem.res_size, sub,
                                                   box.is_null() ? nullptr : &cb, nullptr));
    else
      o.verdict = verdict(w ? write_to_subresource(L, mem.res(), mem.res_size, sub, box.is_null() ? nullptr : &b,
                                                   mem.lin(), mem.lin_size, rp, dp)
                            : read_from_subresource(mem.lin(), mem.lin_size, rp, dp, L, mem.res(), mem.res_size, sub,
                                                    box.is_null() ? nullptr : &b));
  } else if (op == "swizzle_surface" || op == "deswizzle_surface") {
    const bool w = op == "swizzle_surface";
    if (c)
      o.verdict = verdict(w ? swz_swizzle_surface(m.c, mem.res(), mem.res_size, mem.lin(), mem.lin_size, nullptr, nullptr)
                            : swz_deswizzle_surface(m.c, mem.lin(), mem.lin_size, mem.res(), mem.res_size, nullptr,
                                                    nullptr));
    else
      o.verdict = verdict(w ? swizzle_surface(L, mem.res(), mem.res_size, mem.lin(), mem.lin_size)
                            : deswizzle_surface(L, mem.lin(), mem.lin_size, mem.res(), mem.res_size));
  } else if (op == "copy_regions") {
    // The "linear" window is the source buffer, laid out as the destination.
    std::vector<RegionCopy> rs;
    std::vector<swz_box> cboxes;
    std::vector<swz_texture_region> crs;
    cboxes.reserve(k["regions"].size());
    for (const json& r : k["regions"]) {
      RegionCopy x;
      x.dst_subresource = r["dst_sub"];
      x.dst_x = r["dst"][0], x.dst_y = r["dst"][1], x.dst_z = r["dst"][2];
      x.src_subresource = r["src_sub"];
      x.whole_source = r["box"].is_null();
      swz_texture_region y{x.dst_subresource, x.dst_x, x.dst_y, x.dst_z, x.src_subresource, nullptr};
      if (!x.whole_source) {
        x.src_box = cpp_box(r["box"]);
        cboxes.push_back(c_box(r["box"]));
        y.src_box = &cboxes.back();
      }
      rs.push_back(x);
      crs.push_back(y);
    }
    if (c)
      o.verdict = verdict(swz_copy_regions(m.c, mem.res(), mem.res_size, m.c, mem.lin(), mem.lin_size, crs.data(),
                                           static_cast<uint32_t>(crs.size())));
    else
      o.verdict = verdict(copy_regions(L, mem.res(), mem.res_size, L, mem.lin(), mem.lin_size, rs.data(), rs.size()));
  } else if (op == "copy_tiles") {
    const json& t = k["tiles"];
    const bool to_buf = t["dir"] == "to_buffer";
    const uint64_t off = t["buffer_offset"];
    if (c) {
      swz_tile_coordinate s{t["start"][0], t["start"][1], t["start"][2], sub};
      swz_tile_region_size n{t["num"], 0, 1, 1, 1};
      o.verdict = verdict(swz_copy_tiles(m.c, mem.res(), mem.res_size, &s, &n, mem.lin(), mem.lin_size, off,
                                         to_buf ? SWZ_TILES_RESOURCE_TO_BUFFER : SWZ_TILES_BUFFER_TO_RESOURCE));
    } else {
      TileCoordinate s{t["start"][0], t["start"][1], t["start"][2], sub};
      TileRegionSize n;
      n.num_tiles = t["num"];
      o.verdict = verdict(copy_tiles(L, mem.res(), mem.res_size, s, n, mem.lin(), mem.lin_size, off,
                                     to_buf ? TileCopyDirection::SwizzledToLinearBuffer
                                            : TileCopyDirection::LinearBufferToSwizzled));
    }
  } else if (op == "offset") {
    const json& q = k["coords"];
    if (c)
      o.verdict = verdict(swz_element_offset(m.c, sub, q[0], q[1], q[2], q[3], &o.value));
    else
      o.verdict = verdict(element_offset(L, sub, q[0], q[1], q[2], q[3], &o.value));
  } else if (op == "locate") {
    const uint64_t at = k["offset_B"];
    if (c) {
      swz_location l{};
      o.verdict = verdict(swz_locate(m.c, at, &l));
      o.value = (uint64_t{l.subresource} << 48) | (uint64_t{l.y} << 32) | (uint64_t{l.x} << 8) | l.byte;
    } else {
      Location l;
      o.verdict = verdict(locate(L, at, &l));
      o.value = (uint64_t{l.subresource} << 48) | (uint64_t{l.y} << 32) | (uint64_t{l.x} << 8) | l.byte;
    }
  } else {
    ADD_FAILURE() << "unknown op " << op;
  }
  o.arena = std::move(mem.arena);
  return o;
}

// The oracle's memory after an accepted case (nullopt: the case has no byte oracle here).
bool oracle(const json& k, const Made& m, Memory mem, std::vector<uint8_t>* out, uint64_t* value) {
  const std::string op = k["op"];
  const Layout& L = m.cpp;
  const Fmt f = fmt_of(table()["layouts"][k["layout"].get<std::string>()]);
  const uint32_t sub = k.value("sub", 0u);
  if (op == "write" || op == "read") {
    const EBox e = element_box(L.sub(sub), f, k.value("box", json()));
    uint64_t rp = k.value("row_pitch", uint64_t{0}), dp = k.value("depth_pitch", uint64_t{0});
    if (!rp) rp = e.w * f.eb;
    if (!dp) dp = rp * e.h;
    if (e.w) oracle_box(L, sub, e, f.eb, rp, dp, mem.res(), mem.lin(), op == "write");
  } else if (op == "swizzle_surface" || op == "deswizzle_surface") {
    uint64_t at = 0;
    for (uint32_t i = 0; i < L.subresource_count(); ++i) {
      const EBox e = element_box(L.sub(i), f, json());
      oracle_box(L, i, e, f.eb, e.w * f.eb, e.w * f.eb * e.h, mem.res(), mem.lin() + at, op == "swizzle_surface");
      at += e.w * f.eb * e.h * e.d;
    }
  } else if (op == "copy_regions") {
    const std::vector<uint8_t> before = mem.arena;
    const uint8_t* src = before.data() + mem.lin_at;
    for (const json& r : k["regions"]) {
      const uint32_t ss = r["src_sub"], ds = r["dst_sub"];
      const EBox e = element_box(L.sub(ss), f, r["box"]);
      const uint64_t dx = r["dst"][0].get<uint64_t>() / f.bw, dy = r["dst"][1].get<uint64_t>() / f.bh,
                     dz = r["dst"][2];
      for (uint64_t z = 0; z < e.d; ++z)
        for (uint64_t y = 0; y < e.h; ++y)
          for (uint64_t xb = 0; xb < e.w * f.eb; ++xb)
            mem.res()[oracle_offset(L, ds, dx * f.eb + xb, dy + y, dz + z)] =
                src[oracle_offset(L, ss, e.x0 * f.eb + xb, e.y0 + y, e.z0 + z)];
    }
  } else if (op == "offset") {
    const json& q = k["coords"];
    *value = oracle_offset(L, sub, q[0].get<uint64_t>() * f.eb, q[1], q[2], q[3]);
  } else {
    return false;
  }
  *out = std::move(mem.arena);
  return true;
}

TEST(Conformance, EveryCaseThroughCppAndC) {
  const json& cases = table()["cases"];
  ASSERT_GE(cases.size(), 40u);
  size_t ran = 0, accepted = 0, refused = 0, byte_checked = 0;
  for (const json& k : cases) {
    SCOPED_TRACE(k["name"].get<std::string>());
    Made m;
    ASSERT_NO_FATAL_FAILURE(make(table()["layouts"][k["layout"].get<std::string>()], &m));
    const Memory mem = place(res_size_of(k, m.cpp), lin_size_of(k, m.cpp), relative_placement(k, m.cpp));
    const Outcome cpp = run(k, m, mem, false);
    const Outcome c = run(k, m, mem, true);
    const std::string want = k["expect"];
    EXPECT_EQ(cpp.verdict, want) << "C++: " << cpp.verdict;
    EXPECT_EQ(c.verdict, want) << "C: " << c.verdict << " " << swz_last_error();
    EXPECT_TRUE(cpp.arena == c.arena) << "C++ and C wrote different bytes";
    EXPECT_EQ(cpp.value, c.value);
    ++ran;
    if (want != "ok") {
      ++refused;
      EXPECT_TRUE(cpp.arena == mem.arena) << "a refused request wrote memory";
      continue;
    }
    ++accepted;
    std::vector<uint8_t> expect;
    uint64_t value = 0;
    if (oracle(k, m, mem, &expect, &value)) {
      ++byte_checked;
      EXPECT_TRUE(cpp.arena == expect) << "bytes differ from the reference routine";
      EXPECT_EQ(cpp.value, value);
    }
  }
  EXPECT_EQ(ran, cases.size());
  EXPECT_GE(refused, 40u);
  EXPECT_GE(accepted, 20u);
  EXPECT_GE(byte_checked, 20u);
}

}  // namespace
