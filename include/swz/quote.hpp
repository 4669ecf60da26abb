// swz — how messages show text a user typed or a file held.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace swz {

/// `text` as swz's error messages show it: in `quote`s, with the quote, '\\'
/// and control characters escaped (\n, \u001b), bytes that are not UTF-8 as
/// \xNN, and past `max_bytes` cut between characters with the full length
/// added: 'kkkk...' (1000000 bytes). Nothing in it reaches a terminal as an
/// escape sequence. The same rule as the layout-name and JSON-key messages.
std::string quoted_for_message(std::string_view text, size_t max_bytes = 64, char quote = '\'');

}  // namespace swz
