// The layouts identify() and infer() try, and fast address tables for them.
#include <algorithm>
#include <set>

#include "identify/internal.hpp"
#include "swz/layout_names.hpp"
#include "core/plan.hpp"
#include "swz/vendor.hpp"

namespace swz::ident {
namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
uint64_t next_pow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// "pipes=8|16 (default 8), ..." -> {"8", "16"}.
std::vector<std::string> list_values(const std::string& params, const std::string& key) {
  std::vector<std::string> out;
  size_t at = params.find(key + "=");
  if (at == std::string::npos) return out;
  at += key.size() + 1;
  size_t end = params.find_first_of(" ,;(", at);
  std::string list = params.substr(at, end == std::string::npos ? std::string::npos : end - at);
  size_t start = 0;
  while (start <= list.size()) {
    size_t bar = list.find('|', start);
    std::string v = list.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    if (!v.empty() && v != "N" && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return out;
}

}  // namespace

bool simpler(const CandidateName& a, const CandidateName& b) {
  if (a.params != b.params) return a.params < b.params;
  if ((a.row_pitch_B == 0) != (b.row_pitch_B == 0)) return a.row_pitch_B == 0;
  if (a.order != b.order) return a.order < b.order;
  if (a.name.size() != b.name.size()) return a.name.size() < b.name.size();
  return a.name < b.name;
}

std::vector<CandidateName> candidate_names(const FormatInfo& format, uint32_t width_px, uint32_t height_px) {
  (void)height_px;
  std::vector<CandidateName> out;
  const uint64_t eb = format.element_bytes;
  const uint64_t row_B = uint64_t{(width_px + format.block_width - 1) / format.block_width} * eb;  // elements
  // Row-major: the D3D12 default pitch (256-aligned) and other plausible pitches.
  const uint64_t def_pitch = align_up(row_B, 256);
  out.push_back({"row-major", 0, 0});
  std::set<uint64_t> pitches;
  for (uint64_t a : {uint64_t{1}, uint64_t{4}, uint64_t{16}, uint64_t{32}, uint64_t{64}, uint64_t{128}, uint64_t{512},
                     uint64_t{1024}, uint64_t{2048}, uint64_t{4096}})
    pitches.insert(align_up(row_B, std::max<uint64_t>(a, eb)));
  pitches.insert(next_pow2(row_B));
  for (uint64_t p : pitches)
    if (p != def_pitch && p % eb == 0) out.push_back({"row-major:pitch=" + std::to_string(p), 0, 1});
  out.push_back({"std64k", 0, 0});
  out.push_back({"std4k", 0, 0});

  for (const LayoutFamily& f : layout_families()) {
    const std::string& n = f.name;
    if (n == "nv-block-linear") {
      out.push_back({n, 0, 0});
      for (const char* gob : {"tegra", "turing", "blackwell"}) {
        if (std::string(gob) == "blackwell" && eb > 2) continue;  // same GOB as turing
        for (unsigned bh = 1; bh <= 32; bh *= 2) out.push_back({n + ":gob=" + gob + ",bh=" + std::to_string(bh), 0, 2});
      }
    } else if (n.rfind("amd-", 0) == 0) {
      std::vector<std::string> pipes = list_values(f.parameters, "pipes");
      out.push_back({n, 0, 0});
      for (size_t i = 1; i < pipes.size(); ++i) out.push_back({n + ":pipes=" + pipes[i], 0, 1});
    } else if (n.rfind("intel-", 0) == 0) {
      std::vector<std::string> variants = {""};
      if (f.parameters.find("bit6") != std::string::npos) variants.push_back("bit6");
      if (f.parameters.find("v2 ") != std::string::npos) variants.push_back("v2");
      for (const std::string& v : variants) {
        out.push_back({v.empty() ? n : n + ":" + v, 0, v.empty() ? 0u : 1u});
        // A power-of-two pitch (display engines and older drivers).
        const uint64_t p2 = next_pow2(row_B);
        if (p2 != row_B)
          out.push_back({n + ":" + (v.empty() ? "" : v + ",") + "pitch=" + std::to_string(p2), 0, v.empty() ? 1u : 2u});
      }
    } else if (n == "adreno-a6xx") {
      for (const char* mode : {"4ch", "8ch"}) {
        const bool def = std::string(mode) == "4ch";
        out.push_back({def ? n : n + ":mode=" + mode, 0, def ? 0u : 1u});
        for (unsigned hbb = 13; hbb <= 16; ++hbb)
          out.push_back({n + ":" + (def ? "" : std::string("mode=") + mode + ",") + "hbb=" + std::to_string(hbb), 0,
                         def ? 1u : 2u});
      }
    } else if (n == "xbox360-tiled") {
      out.push_back({n, 0, 0});
      const uint64_t p2 = next_pow2(width_px);
      if (p2 != align_up(width_px, 32)) out.push_back({n + ":pitch=" + std::to_string(p2), 0, 1});
    } else {
      out.push_back({n, 0, 0});
    }
  }
  for (size_t i = 0; i < out.size(); ++i) out[i].order = static_cast<uint32_t>(i);
  return out;
}

Status make_candidate(const CandidateName& n, const FormatInfo& format, uint32_t width_px, uint32_t height_px,
                      Layout* out) {
  TextureDesc d;
  d.width = width_px;
  d.height = height_px;
  d.format = format;
  LayoutOptions o;
  o.row_pitch_B = n.row_pitch_B;
  return make_layout_from_name(n.name, d, o, out);
}

Status make_tables(const Layout& layout, AddressTables* t) {
  if (layout.subresource_count() != 1 || layout.desc().dimension != Dimension::Texture2D || layout.desc().samples != 1)
    return {Code::unsupported, "identify handles one 2D subresource without MSAA"};
  const SubresourceLayout& s = layout.sub(0);
  if (s.packed) return {Code::unsupported, "subresource 0 is in a packed mip tail"};
  const Plan& p = layout.plan(0);
  const uint64_t rp = s.row_pitch, dp = s.depth_pitch_B;
  const uint64_t zz = s.pre_swizzle[2];
  t->base = s.offset;
  t->col_a.resize(s.width_el);
  t->col_g.resize(s.width_el);
  t->row_a.resize(s.height_el);
  t->row_g.resize(s.height_el);
  for (uint32_t x = 0; x < s.width_el; ++x) {
    const uint64_t xb = uint64_t{x} * s.element_bytes + s.pre_swizzle[0];
    t->col_a[x] = (xb >> p.ext_log2[0]) * p.block_bytes;
    t->col_g[x] = p.g(0, static_cast<uint32_t>(xb));
  }
  const uint32_t gz = p.immediate ^ p.g(2, static_cast<uint32_t>(zz));
  const uint64_t az = (zz >> p.ext_log2[2]) * dp;
  for (uint32_t y = 0; y < s.height_el; ++y) {
    const uint64_t yy = uint64_t{y} + s.pre_swizzle[1];
    t->row_a[y] = (yy >> p.ext_log2[1]) * rp + az;
    t->row_g[y] = p.g(1, static_cast<uint32_t>(yy)) ^ gz;
  }
  return Status::Ok();
}

}  // namespace swz::ident
