// swz CLI — the --layout argument: built-in names, "pattern:TEXT", JSON files.
//
// Every layout name the CLI understands is parsed here, in parse_layout_arg().
// To add a layout, add a row to the table in layout_names.cpp; names that take
// parameters are written "name:key=value,key=value" (for example
// "nv-block-linear:gob=tegra,bh=16") and get the text after the first ':'.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "swz/layout.hpp"

namespace swz::cli {

struct LayoutListing {
  std::string name;         ///< as typed after --layout
  std::string description;  ///< one line
};

/// Fills spec->kind (and spec->pattern for pattern layouts) from a --layout
/// argument; leaves the other fields alone. Throws Error on an unknown name, a
/// missing file or a pattern that does not parse, listing the built-ins.
void parse_layout_arg(std::string_view arg, LayoutSpec* spec);

/// What `swz layouts` prints: the built-ins, then the pattern forms.
std::vector<LayoutListing> layout_listing();

/// "row-major, std64k, std4k".
std::string builtin_layout_names();

}  // namespace swz::cli
