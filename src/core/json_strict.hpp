// swz internal — JSON parsing for files a user hands to swz.
#pragma once
#include <nlohmann/json.hpp>
#include <string_view>

#include "swz/status.hpp"

namespace swz::detail {

/// Parses `text` into *out, refusing (Code::parse_error, message prefixed by
/// `what`): invalid JSON; a key repeated in one object (nlohmann keeps the
/// last value silently), naming the key; nesting deeper than max_depth
/// levels, refused as soon as the parser gets there, so a hostile file never
/// builds a deep tree. *out is left as it was on error.
Status parse_json_strict(std::string_view text, int max_depth, std::string_view what, nlohmann::json* out);

}  // namespace swz::detail
