// swz CLI — `swz plot`: a picture of the address order inside one block.
#pragma once
#include <string>

#include "texture.hpp"

namespace swz::cli {

struct PlotArgs {
  std::string out;  ///< OUT.png ("-" = standard output)
  uint32_t subresource = 0;
  std::string origin;             ///< "X,Y[,Z]" in elements: the block to draw (default the first)
  std::string annotate = "auto";  ///< auto (at most 256 cells), yes, no
  bool print = false;             ///< also print the order grid as text on stdout
};

/// Draws the block's address order as Python's swz.plot_pattern does: one
/// cell per element (x to the right, y down) coloured by its position in
/// memory inside the block (viridis, 0 .. elements-1), one panel per depth
/// slice / sample (at most 64), order numbers in the cells when annotated,
/// axis names, a colour bar, and the pattern text as the title. Text is drawn
/// with stb_easy_font's built-in bitmap font, the PNG written with
/// stb_image_write. Without --size the texture is one block.
void run_plot(CommonOptions o, const PlotArgs& a);

}  // namespace swz::cli
