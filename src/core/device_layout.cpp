// Device-dependent layouts: slot selection (docs/ARCHITECTURE.md rule 9), layout
// construction on make_explicit_layout, and the resource-layout JSON form.
#include "swz/device_layout.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json_strict.hpp"
#include "core/request.hpp"

namespace swz {

Status device_pattern_slot(const DeviceLayoutDesc& d, uint32_t mip, uint32_t plane, int* slot) {
  int group = 0;
  for (uint8_t t : d.plane_transitions)
    if (t != kNoTransition && t <= plane) ++group;
  // Count only transitions that apply; UINT8_MAX in entry 0 pins slot 0.
  int i = 0;
  if (d.mip_transitions[0] != kNoTransition)
    for (uint8_t t : d.mip_transitions)
      if (t <= mip) ++i;
  int last = -1;
  for (int k = 0; k < 6; ++k)
    if (d.patterns[group * 6 + k]) last = k;
  if (last < 0)
    return {Code::invalid_argument, "patterns: plane group " + std::to_string(group) + " (slots " +
                                        std::to_string(group * 6) + ".." + std::to_string(group * 6 + 5) +
                                        ") has no pattern for plane " + std::to_string(plane)};
  if (i > last) i = last;
  if (!d.patterns[group * 6 + i])
    return {Code::invalid_argument, "patterns: slot " + std::to_string(group * 6 + i) + " selected for mip " +
                                        std::to_string(mip) + " is empty"};
  *slot = group * 6 + i;
  return Status::Ok();
}

Status make_device_layout(const DeviceLayoutDesc& d, Layout* out) {
  const TextureDesc t = detail::with_mip_chain(d.texture);  // mip_levels 0: the full chain
  const uint64_t count = uint64_t{t.mip_levels} * t.array_size * std::max(1u, t.format.planes);
  if (d.subresources.size() != count)
    return {Code::invalid_argument, "subresources: " + std::to_string(d.subresources.size()) + " entries for " +
                                        std::to_string(count) + " subresources (mip_levels x array_size x planes)"};
  // The table handed to make_explicit_layout holds the present slots; map
  // DDI slot numbers onto it.
  std::vector<Pattern> table;
  std::array<int, kPatternSlots> index{};
  for (int s = 0; s < kPatternSlots; ++s) {
    index[s] = -1;
    if (d.patterns[s]) {
      index[s] = static_cast<int>(table.size());
      table.push_back(*d.patterns[s]);
    }
  }
  std::vector<SubresourcePlacement> pl(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t mip = i % t.mip_levels;
    const uint32_t plane = i / (t.mip_levels * t.array_size);
    const DeviceSubresource& ds = d.subresources[i];
    int slot;
    if (d.indexable) {
      if (ds.column_pre_swizzle >= kPatternSlots || !d.patterns[ds.column_pre_swizzle])
        return {Code::invalid_argument, "subresource " + std::to_string(i) +
                                            ": ColumnPreSwizzleOffset = " + std::to_string(ds.column_pre_swizzle) +
                                            " names no pattern slot (indexable layout)"};
      slot = static_cast<int>(ds.column_pre_swizzle);
    } else {
      SWZ_TRY(device_pattern_slot(d, mip, plane, &slot));
      pl[i].pre_swizzle[0] = ds.row_byte_pre_swizzle;
      pl[i].pre_swizzle[1] = ds.column_pre_swizzle;
      pl[i].pre_swizzle[2] = ds.depth_pre_swizzle;
    }
    const bool stacked = d.patterns[slot]->stack_depth_slices();
    if (stacked && ds.depth_stride_B)
      return {Code::invalid_argument,
              "subresource " + std::to_string(i) + ": depth_stride_B = " + std::to_string(ds.depth_stride_B) +
                  " but pattern slot " + std::to_string(slot) + " stacks depth slices; give stack_rows instead"};
    if (!stacked && ds.stack_rows)
      return {Code::invalid_argument, "subresource " + std::to_string(i) + ": stack_rows = " +
                                          std::to_string(ds.stack_rows) + " but pattern slot " + std::to_string(slot) +
                                          " does not stack depth slices; give depth_stride_B instead"};
    pl[i].offset = ds.offset;
    pl[i].row_pitch = ds.row_stride;
    pl[i].depth_pitch_B = ds.depth_stride_B;
    pl[i].stack_rows = ds.stack_rows;
    pl[i].pattern_slot = index[slot];
  }
  return make_explicit_layout(t, table, pl, "device", d.size, out);
}

namespace {

using nlohmann::json;

Status get_u64(const json& j, const char* key, uint64_t* out, bool required, const std::string& where) {
  auto it = j.find(key);
  if (it == j.end()) {
    if (required) return {Code::parse_error, where + ": missing \"" + key + "\""};
    return Status::Ok();
  }
  if (!it->is_number_unsigned()) return {Code::parse_error, where + ": \"" + key + "\" must be an unsigned integer"};
  *out = it->get<uint64_t>();
  return Status::Ok();
}

Status get_u32(const json& j, const char* key, uint32_t* out, bool required, const std::string& where) {
  uint64_t v = *out;
  SWZ_TRY(get_u64(j, key, &v, required, where));
  if (v > 0xffffffffu)
    return {Code::parse_error, where + ": \"" + key + "\" = " + std::to_string(v) + " does not fit in 32 bits"};
  *out = static_cast<uint32_t>(v);
  return Status::Ok();
}

template <size_t N>
Status get_u8_array(const json& j, const char* key, std::array<uint8_t, N>* out) {
  auto it = j.find(key);
  if (it == j.end()) return Status::Ok();
  if (!it->is_array() || it->size() > N)
    return {Code::parse_error, std::string("resource layout: \"") + key + "\" must be an array of at most " +
                                   std::to_string(N) + " integers 0..255"};
  out->fill(kNoTransition);
  size_t i = 0;
  for (const auto& v : *it) {
    if (!v.is_number_unsigned() || v.get<uint64_t>() > 255)
      return {Code::parse_error,
              std::string("resource layout: \"") + key + "\"[" + std::to_string(i) + "] must be an integer 0..255"};
    (*out)[i++] = static_cast<uint8_t>(v.get<uint64_t>());
  }
  return Status::Ok();
}

// Whether subresource i's pattern stacks depth slices (how the older
// one-number "depth_stride" is read). False when no slot can be found:
// make_device_layout reports that.
bool stacks_depth(const DeviceLayoutDesc& d, size_t i) {
  const TextureDesc t = detail::with_mip_chain(d.texture);
  const uint64_t per_plane = uint64_t{t.mip_levels} * t.array_size;
  if (per_plane == 0 || i >= d.subresources.size()) return false;
  int slot = -1;
  if (d.indexable)
    slot = d.subresources[i].column_pre_swizzle < kPatternSlots ? static_cast<int>(d.subresources[i].column_pre_swizzle)
                                                                : -1;
  else if (!device_pattern_slot(d, static_cast<uint32_t>(i % t.mip_levels), static_cast<uint32_t>(i / per_plane), &slot)
                .ok())
    return false;
  return slot >= 0 && slot < kPatternSlots && d.patterns[slot] && d.patterns[slot]->stack_depth_slices();
}

}  // namespace

Status parse_resource_layout_json(std::string_view text, DeviceLayoutDesc* out) {
  // Pattern objects are handed to parse_pattern_json as text (dump), which
  // recurses once per nesting level: a hostile file nested 100000 levels deep
  // would overflow the stack. Parsing
  // itself does not recurse; refuse deep nesting before anything else.
  // Repeated keys are refused too: nlohmann keeps the last value silently.
  json j;
  SWZ_TRY(detail::parse_json_strict(text, 64, "resource layout", &j));
  if (!j.is_object()) return {Code::parse_error, "resource layout: the top level must be an object"};
  SWZ_TRY(detail::check_keys(j,
                             {"format", "dimension", "width", "height", "depth", "array_size", "mip_levels", "samples",
                              "size", "indexable", "patterns", "mip_transitions", "plane_transitions", "mip_transition",
                              "additional_mip_transitions", "subresources"},
                             "resource layout"));
  DeviceLayoutDesc d;
  TextureDesc& t = d.texture;
  auto fmt = j.find("format");
  if (fmt == j.end() || !fmt->is_string())
    return {Code::parse_error, "resource layout: \"format\" must be a DXGI format name"};
  SWZ_TRY(find_format(fmt->get<std::string>(), &t.format));
  if (auto dim = j.find("dimension"); dim != j.end()) {
    if (!dim->is_string() || (*dim != "2D" && *dim != "3D"))
      return {Code::parse_error, "resource layout: \"dimension\" must be \"2D\" or \"3D\""};
    t.dimension = *dim == "3D" ? Dimension::Texture3D : Dimension::Texture2D;
  }
  const std::string w = "resource layout";
  SWZ_TRY(get_u32(j, "width", &t.width, true, w));
  SWZ_TRY(get_u32(j, "height", &t.height, false, w));
  SWZ_TRY(get_u32(j, "depth", &t.depth, false, w));
  SWZ_TRY(get_u32(j, "array_size", &t.array_size, false, w));
  SWZ_TRY(get_u32(j, "mip_levels", &t.mip_levels, false, w));
  SWZ_TRY(get_u32(j, "samples", &t.samples, false, w));
  SWZ_TRY(get_u64(j, "size", &d.size, false, w));
  if (auto ix = j.find("indexable"); ix != j.end()) {
    if (!ix->is_boolean()) return {Code::parse_error, "resource layout: \"indexable\" must be true or false"};
    d.indexable = ix->get<bool>();
  }
  auto pats = j.find("patterns");
  if (pats == j.end() || !pats->is_array() || pats->empty() || pats->size() > kPatternSlots)
    return {Code::parse_error,
            "resource layout: \"patterns\" must be an array of 1..18 entries (pattern objects, text strings or null)"};
  for (size_t s = 0; s < pats->size(); ++s) {
    const json& e = (*pats)[s];
    if (e.is_null()) continue;
    if (!e.is_string() && !e.is_object()) {
      const std::string type = e.type_name();
      return {Code::parse_error, "resource layout: patterns[" + std::to_string(s) +
                                     "] must be a pattern object, its text form (a string) or null, not " +
                                     (type == "array" ? "an " : "a ") + type};
    }
    Pattern p;
    Status st = e.is_string() ? parse_pattern_text(e.get<std::string>(), &p) : parse_pattern_json(e.dump(), &p);
    if (!st.ok()) return {Code::parse_error, "resource layout: patterns[" + std::to_string(s) + "]: " + st.message()};
    d.patterns[s] = p;
  }
  SWZ_TRY(get_u8_array(j, "mip_transitions", &d.mip_transitions));
  SWZ_TRY(get_u8_array(j, "plane_transitions", &d.plane_transitions));
  // Older single-transition form.
  if (j.contains("mip_transition")) {
    if (j.contains("mip_transitions"))
      return {Code::parse_error,
              "resource layout: give either \"mip_transitions\" or \"mip_transition\" + "
              "\"additional_mip_transitions\", not both"};
    uint32_t first = kNoTransition;
    SWZ_TRY(get_u32(j, "mip_transition", &first, true, w));
    if (first > 255) return {Code::parse_error, "resource layout: \"mip_transition\" must be 0..255"};
    std::array<uint8_t, 4> add{kNoTransition, kNoTransition, kNoTransition, kNoTransition};
    SWZ_TRY(get_u8_array(j, "additional_mip_transitions", &add));
    d.mip_transitions = legacy_mip_transitions(static_cast<uint8_t>(first), add);
  }
  std::vector<std::pair<size_t, uint64_t>> legacy;  // (subresource, "depth_stride")
  auto subs = j.find("subresources");
  if (subs == j.end() || !subs->is_array())
    return {Code::parse_error, "resource layout: \"subresources\" must be an array"};
  for (size_t i = 0; i < subs->size(); ++i) {
    const json& e = (*subs)[i];
    const std::string where = "resource layout: subresources[" + std::to_string(i) + "]";
    if (!e.is_object()) return {Code::parse_error, where + " must be an object"};
    SWZ_TRY(detail::check_keys(e,
                               {"offset", "row_stride", "depth_stride_B", "stack_rows", "depth_stride",
                                "row_byte_pre_swizzle", "column_pre_swizzle", "depth_pre_swizzle"},
                               where));
    DeviceSubresource ds;
    SWZ_TRY(get_u64(e, "offset", &ds.offset, true, where));
    SWZ_TRY(get_u64(e, "row_stride", &ds.row_stride, false, where));
    SWZ_TRY(get_u64(e, "depth_stride_B", &ds.depth_stride_B, false, where));
    SWZ_TRY(get_u64(e, "stack_rows", &ds.stack_rows, false, where));
    if (e.contains("depth_stride")) {  // the older one-number form: rows when stacked, bytes otherwise
      if (e.contains("depth_stride_B") || e.contains("stack_rows"))
        return {Code::parse_error, where +
                                       ": give \"depth_stride_B\" or \"stack_rows\", or the older \"depth_stride\", "
                                       "not both"};
      uint64_t v = 0;
      SWZ_TRY(get_u64(e, "depth_stride", &v, false, where));
      legacy.emplace_back(d.subresources.size(), v);
    }
    SWZ_TRY(get_u32(e, "row_byte_pre_swizzle", &ds.row_byte_pre_swizzle, false, where));
    SWZ_TRY(get_u32(e, "column_pre_swizzle", &ds.column_pre_swizzle, false, where));
    SWZ_TRY(get_u32(e, "depth_pre_swizzle", &ds.depth_pre_swizzle, false, where));
    d.subresources.push_back(ds);
  }
  for (const auto& [i, v] : legacy)
    (stacks_depth(d, i) ? d.subresources[i].stack_rows : d.subresources[i].depth_stride_B) = v;
  *out = d;
  return Status::Ok();
}

std::string to_json(const DeviceLayoutDesc& d) {
  json j;
  const TextureDesc& t = d.texture;
  j["format"] = t.format.name;
  j["dimension"] = t.dimension == Dimension::Texture3D ? "3D" : "2D";
  j["width"] = t.width;
  j["height"] = t.height;
  j["depth"] = t.depth;
  j["array_size"] = t.array_size;
  j["mip_levels"] = t.mip_levels;
  j["samples"] = t.samples;
  if (d.size) j["size"] = d.size;
  j["indexable"] = d.indexable;
  int last = -1;
  for (int s = 0; s < kPatternSlots; ++s)
    if (d.patterns[s]) last = s;
  json pats = json::array();
  for (int s = 0; s <= last; ++s) pats.push_back(d.patterns[s] ? json(to_text(*d.patterns[s])) : json(nullptr));
  j["patterns"] = pats;
  j["mip_transitions"] = d.mip_transitions;
  j["plane_transitions"] = d.plane_transitions;
  json subs = json::array();
  for (const auto& s : d.subresources)
    subs.push_back({{"offset", s.offset},
                    {"row_stride", s.row_stride},
                    {"depth_stride_B", s.depth_stride_B},
                    {"stack_rows", s.stack_rows},
                    {"row_byte_pre_swizzle", s.row_byte_pre_swizzle},
                    {"column_pre_swizzle", s.column_pre_swizzle},
                    {"depth_pre_swizzle", s.depth_pre_swizzle}});
  j["subresources"] = subs;
  return j.dump(1);
}

}  // namespace swz
