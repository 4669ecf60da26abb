#include "core/json_strict.hpp"

#include <set>
#include <string>
#include <vector>

namespace swz::detail {

namespace {

// Thrown from the parser callback to stop parsing at the first offence.
struct Refusal {
  std::string message;
};

}  // namespace

Status parse_json_strict(std::string_view text, int max_depth, std::string_view what, nlohmann::json* out) {
  using nlohmann::json;
  const std::string w(what);
  // keys[d]: the keys seen so far in the object whose members sit at depth d.
  std::vector<std::set<std::string>> keys;
  auto cb = [&](int depth, json::parse_event_t ev, json& parsed) -> bool {
    switch (ev) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        // depth is the level of the value that opens here; its members are one deeper.
        if (depth + 1 > max_depth)
          throw Refusal{w + ": nested more than " + std::to_string(max_depth) + " levels deep"};
        if (ev == json::parse_event_t::object_start) {
          if (keys.size() < static_cast<size_t>(depth) + 2) keys.resize(static_cast<size_t>(depth) + 2);
          keys[static_cast<size_t>(depth) + 1].clear();
        }
        break;
      case json::parse_event_t::key: {
        const auto& k = parsed.get_ref<const std::string&>();
        if (static_cast<size_t>(depth) < keys.size() && !keys[static_cast<size_t>(depth)].insert(k).second)
          throw Refusal{w + ": key \"" + k + "\" appears twice in one object"};
        break;
      }
      default:
        break;
    }
    return true;
  };
  json j;
  try {
    j = json::parse(text.begin(), text.end(), cb, /*allow_exceptions=*/false);
  } catch (const Refusal& r) {
    return {Code::parse_error, r.message};
  } catch (const std::bad_alloc&) {
    return {Code::parse_error, w + ": too large to parse in the memory available"};
  } catch (const std::exception& e) {
    return {Code::parse_error, w + ": " + e.what()};
  }
  if (j.is_discarded()) return {Code::parse_error, w + ": not valid JSON"};
  *out = std::move(j);
  return Status::Ok();
}

Status check_keys(const nlohmann::json& obj, std::initializer_list<const char*> known, const std::string& where,
                  std::initializer_list<const char*> also_known) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool found = false;
    for (const char* k : known) found = found || it.key() == k;
    for (const char* k : also_known) found = found || it.key() == k;
    if (found) continue;
    std::string list;
    for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    for (const char* k : also_known) list += (list.empty() ? "" : ", ") + std::string(k);
    return {Code::parse_error, where + ": unknown key \"" + it.key() + "\" (known: " + list + ")"};
  }
  return Status::Ok();
}

}  // namespace swz::detail
