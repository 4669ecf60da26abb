// swz internal — the JSON form of a pattern read from an object already parsed.
#pragma once
#include <initializer_list>
#include <nlohmann/json.hpp>

#include "swz/pattern.hpp"

namespace swz::detail {

/// Reads the pattern object `j` (patterns/README.md §2) into *out; messages
/// start "pattern JSON: ". Its keys must be the pattern's own (bits,
/// postamble, immediate, flags and the metadata name, description, source) or
/// one of `extra_keys`, which parse_pattern_json leaves empty and the reader
/// of the built-in family files (std64k.json, std4k.json) sets to the keys of
/// a family row; anything else is refused, naming the key. *out is left as it
/// was on error.
Status parse_pattern_object(const nlohmann::json& j, std::initializer_list<const char*> extra_keys, Pattern* out);

}  // namespace swz::detail
