// Vendor pattern data: the embedded patterns/vendor/*.json files, parsed and
// checked once; spec parameters; small helpers shared by the builders.
#include <algorithm>
#include <bit>
#include <charconv>
#include <mutex>
#include <nlohmann/json.hpp>

#include "core/json_strict.hpp"
#include "core/parse_number.hpp"
#include "hw/hw_internal.hpp"

namespace swz {
namespace detail {
const char* embedded_file(const char* name);
}

namespace vendor {

// ---- Params -----------------------------------------------------------------

Status parse_number(std::string_view t, const std::string& what, uint64_t* out) {
  if (!detail::parse_unsigned(t, out))
    return {Code::parse_error,
            what + " = " + detail::quoted_for_message(t, 64, '\'') + " is not an unsigned number (decimal or 0x hex)"};
  return Status::Ok();
}

Status Params::parse(std::string_view family, std::string_view text, Params* out) {
  Params p;
  p.family_ = std::string(family);
  size_t pos = 0;
  while (pos <= text.size() && !text.empty()) {
    size_t end = text.find(',', pos);
    std::string_view item = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty())
      return {Code::parse_error, "layout '" + p.family_ + "': empty parameter in " +
                                     detail::quoted_for_message(text, 64, '\'') + " (write key=value,key=value)"};
    size_t eq = item.find('=');
    std::string key(item.substr(0, eq));
    std::string val = eq == std::string_view::npos ? std::string() : std::string(item.substr(eq + 1));
    if (key.empty())
      return {Code::parse_error,
              "layout '" + p.family_ + "': parameter " + detail::quoted_for_message(item, 64, '\'') + " has no name"};
    if (p.kv_.count(key))
      return {Code::parse_error,
              "layout '" + p.family_ + "': parameter " + detail::quoted_for_message(key, 64, '\'') + " is given twice"};
    p.kv_[key] = val;
    p.order_.push_back(key);
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  *out = std::move(p);
  return Status::Ok();
}

std::string Params::str(const std::string& key, const std::string& def) {
  used_.insert(key);
  auto it = kv_.find(key);
  return it == kv_.end() ? def : it->second;
}

Status Params::u64(const std::string& key, uint64_t* out, bool* present) {
  used_.insert(key);
  auto it = kv_.find(key);
  *present = it != kv_.end();
  if (!*present) return Status::Ok();
  Status st = parse_number(it->second, key, out);
  if (!st.ok()) return {st.code(), "layout '" + family_ + "': " + st.message()};
  return Status::Ok();
}

Status Params::levels_list(const std::string& key, std::vector<LevelPlacement>* out, bool* present) {
  used_.insert(key);
  auto it = kv_.find(key);
  *present = it != kv_.end();
  out->clear();
  if (!*present) return Status::Ok();
  std::string_view s = it->second;
  size_t pos = 0;
  while (true) {
    size_t end = s.find('/', pos);
    std::string_view item = s.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    LevelPlacement lp;
    size_t at = item.find('@');
    Status st = parse_number(item.substr(0, at), key, &lp.offset);
    if (st.ok() && at != std::string_view::npos) {
      std::string_view o = item.substr(at + 1);
      int i = 0;
      size_t q = 0;
      while (st.ok()) {
        size_t dot = o.find('.', q);
        if (i == 3) {
          st = {Code::parse_error, key + " = " + detail::quoted_for_message(item, 64, '\'') +
                                       ": an origin has at most 3 numbers (X bytes.Y rows.Z slices)"};
          break;
        }
        st = parse_number(o.substr(q, dot == std::string_view::npos ? std::string_view::npos : dot - q),
                          key + " origin", &lp.origin[i++]);
        if (dot == std::string_view::npos) break;
        q = dot + 1;
      }
    }
    if (!st.ok()) return {st.code(), "layout '" + family_ + "': " + st.message() + " (write OFFSET[@X.Y.Z]/OFFSET...)"};
    out->push_back(lp);
    if (end == std::string_view::npos) break;
    pos = end + 1;
  }
  return Status::Ok();
}

bool Params::flag(const std::string& key) {
  used_.insert(key);
  return kv_.count(key) != 0;
}

Status Params::check_all_used() const {
  for (const std::string& k : order_)
    if (!used_.count(k)) {
      std::string known;
      for (const std::string& u : used_) {
        if (!known.empty()) known += ", ";
        known += u;
      }
      return {Code::invalid_argument, "layout '" + family_ + "': unknown parameter " +
                                          detail::quoted_for_message(k, 64, '\'') + " (this family takes: " + known +
                                          ")"};
    }
  return Status::Ok();
}

// ---- helpers ----------------------------------------------------------------

unsigned log2u(uint64_t v) { return static_cast<unsigned>(std::bit_width(v) - 1); }
uint64_t next_pow2(uint64_t v) { return v <= 1 ? 1 : std::bit_ceil(v); }

LevelDims level_dims(const TextureDesc& desc, uint32_t m) {
  LevelDims d;
  d.w = std::max(1u, desc.width >> m);
  d.h = std::max(1u, desc.height >> m);
  d.d = desc.dimension == Dimension::Texture3D ? std::max(1u, desc.depth >> m) : 1u;
  d.w_el = static_cast<uint32_t>(ceil_div(d.w, desc.format.block_width));
  d.h_el = static_cast<uint32_t>(ceil_div(d.h, desc.format.block_height));
  return d;
}

std::array<unsigned, 4> extents_log2(const Pattern& p) {
  std::array<unsigned, 4> e{};
  unsigned n = p.block_bits();
  for (unsigned i = 0; i < n; ++i) e[p.interleave[i].channel & 3]++;
  return e;
}

static std::string eb_list(const std::vector<uint32_t>& v) {
  if (v.empty()) return "any";
  std::string s;
  for (uint32_t e : v) {
    if (!s.empty()) s += "/";
    s += std::to_string(e);
  }
  return s;
}

Status select_pattern_for(const DataFamily& f, uint32_t eb, Dimension dim, uint32_t samples, int compressed,
                          const std::string& config, const std::string& variant, const DataPattern** out) {
  for (const DataPattern& p : f.patterns) {
    if (!p.element_bytes.empty() &&
        std::find(p.element_bytes.begin(), p.element_bytes.end(), eb) == p.element_bytes.end())
      continue;
    if (p.dim != dim || p.samples != samples) continue;
    if (!config.empty() && p.config != config) continue;
    if (p.variant != variant) continue;
    if (p.compressed >= 0 && compressed >= 0 && p.compressed != compressed) continue;
    *out = &p;
    return Status::Ok();
  }
  std::string have;
  for (const DataPattern& p : f.patterns) {
    std::string h =
        (p.dim == Dimension::Texture3D ? "3D" : "2D") + std::string(" ") + eb_list(p.element_bytes) + "-byte";
    if (p.samples > 1) {
      h += ' ';
      h += std::to_string(p.samples);
      h += "x MSAA";
    }
    if (!p.config.empty()) h += " " + p.config;
    if (!p.variant.empty()) h += " " + p.variant;
    if (p.compressed == 1) h += " block-compressed";
    if (p.compressed == 0) h += " uncompressed";
    if (have.find(h) == std::string::npos) {
      if (!have.empty()) have += "; ";
      have += h;
    }
  }
  std::string want = (dim == Dimension::Texture3D ? "3D" : "2D") + std::string(" ") + std::to_string(eb) + "-byte";
  if (samples > 1) {
    want += ' ';
    want += std::to_string(samples);
    want += "x MSAA";
  }
  if (!config.empty()) want += " " + config;
  if (!variant.empty()) want += " " + variant;
  return {Code::unsupported,
          "layout '" + f.name + "' has no pattern for " + want + " elements (the public sources give: " + have + ")"};
}

Status select_pattern(const DataFamily& f, const TextureDesc& desc, const std::string& config,
                      const std::string& variant, const DataPattern** out) {
  return select_pattern_for(f, desc.format.element_bytes, desc.dimension, desc.samples,
                            desc.format.block_compressed() ? 1 : 0, config, variant, out);
}

// ---- loading ---------------------------------------------------------------

namespace {

Status bad(const std::string& file, const std::string& what) {
  return {Code::internal, "built-in vendor pattern file " + file + ": " + what};
}

std::string join_bits(const nlohmann::json& a) {
  std::string s;
  for (const auto& t : a) {
    if (!s.empty()) s += " ";
    s += t.get<std::string>();
  }
  return s;
}

Status load_pattern(const std::string& file, const std::string& fam, const nlohmann::json& e, DataPattern* out) {
  // Only "bits" or "raw" goes on to the pattern parser; a key not read here
  // (a "postamble", say) would be dropped without a word. "checked" is a note.
  Status keys =
      detail::check_keys(e,
                         {"element_bytes", "dim", "samples", "config", "config_text", "variant", "compressed",
                          "pitch_multiple_texels", "tile_texels", "from", "derived", "checked", "raw", "bits", "block"},
                         fam + ": a pattern row");
  if (!keys.ok()) return bad(file, keys.message());
  DataPattern p;
  if (e.contains("element_bytes") && e["element_bytes"].is_array())
    for (const auto& v : e["element_bytes"]) p.element_bytes.push_back(v.get<uint32_t>());
  p.dim = e.value("dim", std::string("2D")) == "3D" ? Dimension::Texture3D : Dimension::Texture2D;
  p.samples = e.value("samples", 1u);
  p.config = e.value("config", std::string());
  p.config_text = e.value("config_text", std::string());
  p.variant = e.value("variant", std::string());
  if (e.contains("compressed")) p.compressed = e["compressed"].get<bool>() ? 1 : 0;
  p.pitch_multiple_texels = e.value("pitch_multiple_texels", 0u);
  if (e.contains("tile_texels")) {
    p.tile_w = e["tile_texels"][0].get<uint32_t>();
    p.tile_h = e["tile_texels"][1].get<uint32_t>();
  }
  p.origin =
      e.contains("from") ? (e["from"].get<std::string>().rfind("amd_3d_equations.json", 0) == 0
                                ? "tests/data/hw/" + e["from"].get<std::string>()
                                : "research table row " + e["from"].get<std::string>())
                         : e.value("derived", std::string());
  nlohmann::json pj;
  if (e.contains("raw")) {
    p.raw = true;
    pj["bits"] = e["raw"];
    p.bits_text = join_bits(e["raw"]);
  } else if (e.contains("bits")) {
    pj["bits"] = e["bits"];
    p.bits_text = join_bits(e["bits"]);
  } else {
    return bad(file, fam + ": an entry has neither \"bits\" nor \"raw\"");
  }
  Pattern parsed;
  Status st = parse_pattern_json(pj.dump(), &parsed);
  if (!st.ok()) return bad(file, fam + ": " + st.message());
  if (e.contains("block")) {
    st = parse_block_extents(e["block"].get<std::string>(), &p.block);
    if (!st.ok()) return bad(file, fam + ": " + st.message());
    st = canonicalize(parsed, p.block, &p.pattern);
    if (!st.ok()) return bad(file, fam + " (" + p.bits_text + "): " + st.message());
  } else {
    p.pattern = parsed;
  }
  uint32_t check_eb = p.element_bytes.empty() ? 1 : p.element_bytes.front();
  st = validate(p.pattern, check_eb);
  if (!st.ok()) return bad(file, fam + " (" + p.bits_text + "): " + st.message());
  *out = std::move(p);
  return Status::Ok();
}

Status load_file(const char* file, VendorData* d) {
  const char* text = detail::embedded_file(file);
  if (!text) return bad(file, "not embedded in the library");
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return bad(file, "not valid JSON");
  try {
    if (j.contains("gobs")) {
      for (const auto& g : j["gobs"]) {
        NvGob gob;
        gob.gob = g["gob"].get<std::string>();
        if (g["element_bytes"].is_array())
          for (const auto& v : g["element_bytes"]) gob.element_bytes.push_back(v.get<uint32_t>());
        nlohmann::json pj;
        pj["bits"] = g["bits"];
        Pattern p;
        Status st = parse_pattern_json(pj.dump(), &p);
        if (!st.ok() || p.block_bits() != 9) return bad(file, "GOB " + gob.gob + " is not 9 address bits");
        for (unsigned i = 0; i < 9; ++i) gob.bits.push_back(p.interleave[i]);
        gob.note = g.value("note", std::string());
        d->gobs.push_back(gob);
      }
      for (const auto& s : j["sources"]) {
        if (!d->nv_sources.empty()) d->nv_sources += "; ";
        d->nv_sources += s.get<std::string>();
      }
      if (j.contains("not_expressible")) d->fermi_note = j["not_expressible"].value("fermi", std::string());
    }
    if (j.contains("families")) {
      for (const auto& fj : j["families"]) {
        DataFamily f;
        f.name = fj["name"].get<std::string>();
        f.description = fj.value("description", std::string());
        f.source = fj.value("source", std::string());
        f.placement = fj.value("placement", std::string("tiles"));
        if (fj.contains("alias")) {
          // The same rule under another platform's name: the placement and the
          // rows of a family loaded before it.
          const DataFamily* target = find_family(*d, fj["alias"].get<std::string>());
          if (!target || fj.contains("patterns") || fj.contains("placement"))
            return bad(file, f.name + ": alias of '" + fj["alias"].get<std::string>() +
                                 "' needs that family earlier and no patterns or placement of its own");
          f.placement = target->placement;
          f.patterns = target->patterns;
          f.alias_of = target->name;
          d->families.push_back(std::move(f));
          continue;
        }
        for (const auto& e : fj["patterns"]) {
          DataPattern p;
          SWZ_TRY(load_pattern(file, f.name, e, &p));
          f.patterns.push_back(std::move(p));
        }
        d->families.push_back(std::move(f));
      }
    }
  } catch (const std::exception& ex) {
    return bad(file, ex.what());
  }
  return Status::Ok();
}

}  // namespace

const VendorData& data(Status* status) {
  static std::once_flag once;
  static VendorData d;
  static Status st;
  std::call_once(once, [] {
    for (const char* f : {"nvidia.json", "amd.json", "intel.json", "other.json", "consoles.json"}) {
      st = load_file(f, &d);
      if (!st.ok()) break;
    }
  });
  if (status) *status = st;
  return d;
}

const DataFamily* find_family(const VendorData& d, std::string_view name) {
  for (const DataFamily& f : d.families)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace vendor
}  // namespace swz
