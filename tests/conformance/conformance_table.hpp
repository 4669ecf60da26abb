// The conformance table (tests/conformance/requests.json): loading it, the
// layouts it names, and the memory of one case (one arena holding the
// resource buffer and, placed relative to it, the linear buffer). Shared by
// the C++/C runner (test_conformance.cpp) and the GPU runner (test_gpu.cpp).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "swz/swz.hpp"

namespace swz::conformance {
using json = nlohmann::json;

inline const json& table() {
  static const json t = [] {
    std::ifstream f(SWZ_CONFORMANCE_JSON);
    return json::parse(f);
  }();
  return t;
}

/// The layout `name` of the table, through the C++ API.
inline void make_layout(const json& l, Layout* out, TextureDesc* desc) {
  TextureDesc& d = *desc;
  ASSERT_TRUE(find_format(l["format"].get<std::string>(), &d.format).ok());
  d.width = l["width"];
  d.height = l["height"];
  d.dimension = l.value("dim", "2d") == "3d" ? Dimension::Texture3D : Dimension::Texture2D;
  d.depth = l.value("depth", 1u);
  d.mip_levels = l.value("mips", 1u);
  const std::string name = l["name"];
  const Status st = make_layout_from_name(name, d, LayoutOptions{}, out);
  ASSERT_TRUE(st.ok()) << name << ": " << st.message();
}

struct Memory {
  std::vector<uint8_t> arena;
  uint64_t res_at = 0, res_size = 0;  ///< resource window in the arena
  uint64_t lin_at = 0, lin_size = 0;  ///< linear window (lin_size as passed; the arena holds at most 4 MiB of it)
  uint8_t* res() { return arena.data() + res_at; }
  uint8_t* lin() { return arena.data() + lin_at; }
};

inline constexpr uint64_t kGuard = 4096 + 16;  // malloc-like phase, room before for negative placements
inline constexpr uint64_t kMaxHeld = 4u << 20;

/// `rel`: the second buffer at this byte offset from the resource, or separate (null).
inline Memory place(uint64_t res_size, uint64_t lin_size, const json& rel) {
  Memory m;
  m.res_size = res_size;
  m.lin_size = lin_size;
  const uint64_t held = std::min(lin_size, kMaxHeld);
  if (rel.is_null()) {
    m.res_at = kGuard;
    m.lin_at = kGuard + res_size + kGuard;
    m.arena.resize(m.lin_at + held + kGuard);
  } else {
    const int64_t off = rel.get<int64_t>();
    const uint64_t before = off < 0 ? static_cast<uint64_t>(-off) : 0;
    m.res_at = kGuard + before;
    m.lin_at = static_cast<uint64_t>(static_cast<int64_t>(m.res_at) + off);
    m.arena.resize(std::max(m.res_at + res_size, m.lin_at + held) + kGuard);
  }
  for (size_t i = 0; i < m.arena.size(); ++i) m.arena[i] = static_cast<uint8_t>(i * 7 + 1 + (i >> 8));
  return m;
}

inline uint64_t res_size_of(const json& k, const Layout& L) {
  const int64_t delta = k.value("res_delta", int64_t{0});
  return static_cast<uint64_t>(static_cast<int64_t>(L.size()) + delta);
}

inline json relative_placement(const json& k, const Layout& L) {
  json rel = k.value("lin_at", json());
  if (k["op"] == "copy_regions") rel = k.value("src_at", json());
  if (k["op"] == "copy_tiles") rel = k["tiles"].value("buf_at", json());
  if (rel.is_string() && rel.get<std::string>() == "end-16") rel = static_cast<int64_t>(L.size()) - 16;
  return rel;
}

inline uint64_t lin_size_of(const json& k, const Layout& L) {
  if (k["op"] == "copy_regions") return L.size();
  if (k["op"] == "copy_tiles") return k["tiles"]["buffer_size"];
  return k.value("lin_size", uint64_t{0});
}

inline Box box_of(const json& b) { return Box{b[0], b[1], b[2], b[3], b[4], b[5]}; }

inline std::string verdict(const Status& s) { return s.ok() ? "ok" : code_name(s.code()); }

}  // namespace swz::conformance
