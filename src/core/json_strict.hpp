// swz internal — JSON parsing for files a user hands to swz.
#pragma once
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "swz/status.hpp"

namespace swz::detail {

/// Parses `text` into *out, refusing (Code::parse_error, message prefixed by
/// `what`): invalid JSON; a key repeated in one object (nlohmann keeps the
/// last value silently), naming the key; nesting deeper than max_depth
/// levels, refused as soon as the parser gets there, so a hostile file never
/// builds a deep tree. *out is left as it was on error.
Status parse_json_strict(std::string_view text, int max_depth, std::string_view what, nlohmann::json* out);

/// `text` (a key or a value read from a user's file) as an error message
/// shows it: in double quotes (or `quote`), with the quote, '\\' and control characters (C0,
/// DEL, C1) escaped JSON-style (\u0000, \n, \u001b), so that U+0000 cannot end
/// the message where it becomes a C string (CLI, C API, Python) and nothing
/// reaches a terminal as an escape sequence; bytes that are not UTF-8 as \xNN.
/// Longer than max_bytes: the first max_bytes at most, cut between
/// characters, then `..."` and the full length, `"kkkk..." (1000000 bytes)`.
std::string quoted_for_message(std::string_view text, size_t max_bytes = 64, char quote = '"');

/// Refuses (Code::parse_error) a key of the object `obj` that is in neither
/// `known` nor `also_known`, naming it, where it is (`where`) and every key
/// allowed there: a misspelt "row_strde" or "postambel" would otherwise be
/// dropped without a word and the default used instead. Used by the
/// resource-layout reader, the pattern reader and the built-in pattern files.
Status check_keys(const nlohmann::json& obj, std::initializer_list<const char*> known, const std::string& where,
                  std::initializer_list<const char*> also_known = {});

}  // namespace swz::detail
