// swz CLI — the --layout argument: built-in names, "pattern:TEXT", JSON files.
//
// Every layout name the CLI understands is parsed here, in parse_layout_arg().
// To add a layout, add a row to the table in layout_names.cpp; names that take
// parameters are written "name:key=value,key=value" (for example
// "nv-block-linear:gob=tegra,bh=16") and get the text after the first ':'.
// A layout that make_layout cannot express sets LayoutChoice::build.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "swz/layout.hpp"

namespace swz::cli {

/// What a --layout argument names: a LayoutSpec for make_layout, or, for
/// layouts that make_layout does not know (vendor layouts built with
/// make_explicit_layout), a function that builds the Layout itself. The
/// pitches and mip tail of `spec` come from the command line either way.
struct LayoutChoice {
  LayoutSpec spec{};
  std::function<Status(const TextureDesc& desc, const LayoutSpec& spec, Layout* out)> build;  ///< empty: make_layout
  /// Set when the layout fixes the texture itself (a resource-layout JSON):
  /// the command-line texture options may then only repeat it.
  std::optional<TextureDesc> texture;
};

struct LayoutListing {
  std::string name;         ///< as typed after --layout
  std::string description;  ///< one line
};

/// Parses a --layout argument: sets choice->spec.kind (and .pattern) or
/// choice->build; leaves the other spec fields alone. Throws Error on an
/// unknown name, a missing file or a pattern that does not parse, listing the
/// built-ins.
void parse_layout_arg(std::string_view arg, LayoutChoice* choice);

/// What `swz layouts` prints: the built-ins, then the pattern forms.
std::vector<LayoutListing> layout_listing();

/// "row-major, std64k, std4k".
std::string builtin_layout_names();

}  // namespace swz::cli
