#include "plot.hpp"

#include <stb/stb_easy_font.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "common.hpp"
#include "file_io.hpp"
#include "output.hpp"
#include "swz/address.hpp"
#include "swz/layout_names.hpp"
#include "swz/pattern.hpp"

namespace swz::cli {
namespace {

struct Rgb {
  uint8_t r, g, b;
};

// Matplotlib's default colour map "viridis" (CC0), as ten evenly spaced
// samples (its published 10-colour palette), interpolated linearly.
constexpr Rgb kViridis[] = {{0x44, 0x01, 0x54}, {0x48, 0x28, 0x78}, {0x3E, 0x4A, 0x89}, {0x31, 0x68, 0x8E},
                            {0x26, 0x82, 0x8E}, {0x1F, 0x9E, 0x89}, {0x35, 0xB7, 0x79}, {0x6D, 0xCD, 0x59},
                            {0xB4, 0xDE, 0x2C}, {0xFD, 0xE7, 0x25}};

Rgb viridis(double t) {
  t = std::clamp(t, 0.0, 1.0) * 9.0;
  const int i = std::min(8, static_cast<int>(t));
  const double f = t - i;
  const Rgb a = kViridis[i], b = kViridis[i + 1];
  auto mix = [f](uint8_t u, uint8_t v) { return static_cast<uint8_t>(std::lround(u + (v - u) * f)); };
  return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

class Canvas {
 public:
  Canvas(int w, int h) : w_(w), h_(h), px_(size_t(w) * h * 3, 255) {}
  void fill(int x0, int y0, int x1, int y1, Rgb c) {
    x0 = std::max(0, x0), y0 = std::max(0, y0), x1 = std::min(w_, x1), y1 = std::min(h_, y1);
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        uint8_t* p = &px_[(size_t(y) * w_ + x) * 3];
        p[0] = c.r, p[1] = c.g, p[2] = c.b;
      }
  }
  /// Text with stb_easy_font (glyphs about 7 units high), scaled; (x, y) is the top left.
  void text(int x, int y, const std::string& s, Rgb c, int scale = 1) {
    std::vector<char> buf(s.size() * 300 + 1000);
    std::vector<char> str(s.begin(), s.end());
    str.push_back(0);
    const int quads = stb_easy_font_print(0, 0, str.data(), nullptr, buf.data(), static_cast<int>(buf.size()));
    for (int q = 0; q < quads; ++q) {
      const float* v0 = reinterpret_cast<const float*>(buf.data() + q * 64);
      const float* v2 = reinterpret_cast<const float*>(buf.data() + q * 64 + 32);
      const float k = static_cast<float>(scale);
      fill(x + static_cast<int>(v0[0] * k), y + static_cast<int>(v0[1] * k), x + static_cast<int>(v2[0] * k),
           y + static_cast<int>(v2[1] * k), c);
    }
  }
  static int text_width(const std::string& s, int scale = 1) {
    std::vector<char> str(s.begin(), s.end());
    str.push_back(0);
    return stb_easy_font_width(str.data()) * scale;
  }
  int width() const { return w_; }
  int height() const { return h_; }
  const uint8_t* data() const { return px_.data(); }

 private:
  int w_, h_;
  std::vector<uint8_t> px_;
};

void append_bytes(void* ctx, void* data, int size) {
  auto* v = static_cast<std::vector<uint8_t>*>(ctx);
  v->insert(v->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
}

std::vector<uint64_t> parse_origin(const std::string& text) {
  std::vector<uint64_t> v;
  if (text.empty()) return {0, 0, 0};
  size_t i = 0;
  while (i <= text.size()) {
    size_t j = text.find(',', i);
    if (j == std::string::npos) j = text.size();
    if (text.find_first_not_of(" \t", i) >= j)
      fail("--origin '" + text + "': field " + std::to_string(v.size() + 1) + " is empty (X,Y[,Z], elements)");
    v.push_back(parse_u64(text.substr(i, j - i), "--origin"));
    i = j + 1;
  }
  if (v.size() < 2 || v.size() > 3) fail("--origin '" + text + "' is not X,Y[,Z] (elements)");
  v.resize(3, 0);
  return v;
}

// The texture whose block run_plot draws: the one --size gives, or, without
// --size, one block (the pattern read from a 1024x1024 texture, large enough
// that no family shrinks its block to the texture, then the texture rebuilt
// at the block's size, for layouts whose pattern depends on it).
Texture plot_texture(CommonOptions o, const PlotArgs& a) {
  const bool pattern_layout = !o.pattern.empty() || o.layout.rfind("pattern:", 0) == 0;
  const bool fixed = fixed_texture(o).has_value();
  if (o.format.empty() && !fixed) o.format = pattern_layout ? "R8_UNORM" : "R8G8B8A8_UNORM";
  if (!o.size.empty() || fixed) return make_texture(o, parse_size(o.size));
  CommonOptions probe = o;
  probe.size = "1024x1024";
  for (int round = 0; round < 2; ++round) {
    Texture p = make_texture(probe, parse_size(probe.size));
    if (a.subresource >= p.layout.subresource_count())
      fail("--subresource " + std::to_string(a.subresource) + ": the texture has " +
           std::to_string(p.layout.subresource_count()));
    const SubresourceLayout& s = p.layout.sub(a.subresource);
    const Pattern& pat = p.layout.patterns().at(static_cast<size_t>(std::max(0, s.pattern_slot)));
    const auto e = pat.block_extent();
    const uint64_t bw = p.format.block_compressed() ? p.format.block_width : 1,
                   bh = p.format.block_compressed() ? p.format.block_height : 1;
    const uint64_t w = std::max<uint64_t>(1, e[0] / s.element_bytes) * bw, h = e[1] * bh;
    if (w > 65536 || h > 65536 || e[2] > 4096) fail("the block of layout " + p.layout_arg + " is too large to plot");
    probe.size = std::to_string(w) + "x" + std::to_string(h) + (e[2] > 1 ? "x" + std::to_string(e[2]) : "");
    if (e[3] > 1 && o.samples == 1) probe.samples = static_cast<uint32_t>(e[3]);
  }
  return make_texture(probe, parse_size(probe.size));
}

}  // namespace

void run_plot(CommonOptions o, const PlotArgs& a) {
  const Texture t = plot_texture(o, a);
  const Layout& L = t.layout;
  if (a.subresource >= L.subresource_count())
    fail("--subresource " + std::to_string(a.subresource) + ": a " + t.describe() + " texture has " +
         std::to_string(L.subresource_count()) + " subresource(s)");
  const SubresourceLayout& s = L.sub(a.subresource);
  if (s.packed) fail(sub_name(s, t.desc) + " lies in the D3D12 packed mip tail; it has no pattern to plot");
  const Pattern& pat = L.patterns().at(static_cast<size_t>(std::max(0, s.pattern_slot)));
  const std::string text = to_text(pat);
  if (text.empty() || pat.block_bits() == 0)
    fail("layout " + t.layout_arg + " has no swizzle pattern to plot (rows are linear)");
  const uint32_t eb = s.element_bytes;
  const auto e = pat.block_extent();
  if (e[0] % eb)
    fail("the block is " + std::to_string(e[0]) + " bytes wide in X, not a multiple of the " + std::to_string(eb) +
         "-byte element");
  uint64_t nx = e[0] / eb, ny = e[1], nz = e[2], ns = e[3];
  if (nx * ny * nz * ns <= 1)
    fail("layout " + t.layout_arg + " has no swizzle pattern to plot: its block is one element (rows are linear)");
  const uint64_t block_B = uint64_t{1} << pat.block_bits();
  const std::vector<uint64_t> org = parse_origin(a.origin);
  const uint64_t ox = org[0] / nx * nx, oy = org[1] / ny * ny, oz = org[2] / nz * nz;

  AddressMap map;
  check(AddressMap::make(L, a.subresource, &map, nx * ny * nz * ns), sub_name(s, t.desc));
  // A texture smaller than the block (--size): draw the part it covers.
  const uint64_t* lim = map.limits();
  if (ox >= lim[0] || oy >= lim[1] || oz >= lim[2])
    fail("--origin " + a.origin + " is outside " + sub_name(s, t.desc) + " (" + std::to_string(lim[0]) + "x" +
         std::to_string(lim[1]) + "x" + std::to_string(lim[2]) + " elements)");
  const uint64_t full_cells = nx * ny * nz * ns;
  nx = std::min(nx, lim[0] - ox), ny = std::min(ny, lim[1] - oy), nz = std::min(nz, lim[2] - oz),
  ns = std::min(ns, lim[3]);
  if (nx * ny * nz * ns < full_cells)
    note("the texture covers " + std::to_string(nx * ny * nz * ns) + " of the block's " + std::to_string(full_cells) +
         " elements; only those are drawn (leave --size out to draw the whole block)");
  const uint64_t panels_all = nz * ns, panels = std::min<uint64_t>(panels_all, 64);
  // Picture: panels in a grid of ceil(sqrt(n)) columns, a colour bar, a title.
  // Its size for a cell size, checked before anything proportional to the
  // block is computed (a cell is at least one pixel).
  const bool annotate = a.annotate == "yes" || (a.annotate == "auto" && panels * nx * ny <= 256);
  const uint64_t cols = static_cast<uint64_t>(std::ceil(std::sqrt(static_cast<double>(panels))));
  const uint64_t rows = (panels + cols - 1) / cols;
  const int left = 60, top = 44, gap_x = 60, gap_y = 56, bar_w = 18, right = 150;
  constexpr uint64_t kMaxPixels = uint64_t{64} << 20;
  auto check_picture = [&](uint64_t cell) {
    const uint64_t W = left + cols * nx * cell + (cols - 1) * gap_x + 30 + bar_w + right;
    const uint64_t H = top + rows * ny * cell + (rows - 1) * gap_y + 50;
    if (W > kMaxPixels || H > kMaxPixels || W * H > kMaxPixels)
      fail("the plot would be too large (" + std::to_string(W) + "x" + std::to_string(H) + " pixels, more than " +
           std::to_string(kMaxPixels) + "); draw a smaller block (--size)");
  };
  check_picture(annotate ? 30 : std::max<uint64_t>(1, 600 / std::max<uint64_t>(nx, ny)));
  std::vector<uint64_t> order(panels * ny * nx);
  uint64_t vmax = 1;
  for (uint64_t p = 0; p < panels; ++p) {
    const uint64_t si = p / nz, zi = p % nz;
    for (uint64_t y = 0; y < ny; ++y)
      for (uint64_t x = 0; x < nx; ++x) {
        uint64_t off = 0;
        check(map.offset(ox + x, oy + y, oz + zi, si, &off),
              "element (" + std::to_string(ox + x) + ", " + std::to_string(oy + y) + ", " + std::to_string(oz + zi) +
                  ") (--origin and --size must cover the block)");
        const uint64_t v = (off & (block_B - 1)) / eb;
        order[(p * ny + y) * nx + x] = v;
        vmax = std::max(vmax, v);
      }
  }
  if (a.print) {
    for (uint64_t p = 0; p < panels; ++p) {
      if (panels > 1)
        std::printf("%s%s=%llu\n", p ? "\n" : "", ns > 1 ? "s/z" : "z", static_cast<unsigned long long>(p));
      for (uint64_t y = 0; y < ny; ++y)
        for (uint64_t x = 0; x < nx; ++x)
          std::printf("%llu%c", static_cast<unsigned long long>(order[(p * ny + y) * nx + x]),
                      x + 1 == nx ? '\n' : ' ');
    }
  }

  const int cell = annotate ? std::max(30, Canvas::text_width(std::to_string(vmax)) + 8)
                            : std::max(1, static_cast<int>(600 / std::max<uint64_t>(nx, ny)));
  check_picture(static_cast<uint64_t>(cell));
  const int pw = static_cast<int>(nx) * cell, ph = static_cast<int>(ny) * cell;
  const int W = left + static_cast<int>(cols) * pw + static_cast<int>(cols - 1) * gap_x + 30 + bar_w + right;
  const int H = top + static_cast<int>(rows) * ph + static_cast<int>(rows - 1) * gap_y + 50;
  Canvas c(W, H);
  const Rgb black{0, 0, 0}, white{255, 255, 255};
  const std::string title = text + "  (" + std::to_string(eb) + "-byte elements)";
  c.text(std::max(4, (W - Canvas::text_width(title)) / 2), 10, title, black);
  for (uint64_t p = 0; p < panels; ++p) {
    const int px = left + static_cast<int>(p % cols) * (pw + gap_x),
              py = top + static_cast<int>(p / cols) * (ph + gap_y);
    if (panels_all > 1) {
      const std::string label = ns > 1 && nz > 1 ? "s=" + std::to_string(p / nz) + " z=" + std::to_string(p % nz)
                                : ns > 1         ? "s=" + std::to_string(p)
                                                 : "z=" + std::to_string(p);
      c.text(px + (pw - Canvas::text_width(label)) / 2, py - 14, label, black);
    }
    for (uint64_t y = 0; y < ny; ++y)
      for (uint64_t x = 0; x < nx; ++x) {
        const uint64_t v = order[(p * ny + y) * nx + x];
        const int x0 = px + static_cast<int>(x) * cell, y0 = py + static_cast<int>(y) * cell;
        c.fill(x0, y0, x0 + cell, y0 + cell, viridis(static_cast<double>(v) / static_cast<double>(vmax)));
        if (annotate) {
          const std::string n = std::to_string(v);
          c.text(x0 + (cell - Canvas::text_width(n)) / 2, y0 + cell / 2 - 4, n, white);
        }
      }
    // Axes: a frame, the first and last index, the axis names.
    c.fill(px - 1, py - 1, px + pw + 1, py, black);
    c.fill(px - 1, py + ph, px + pw + 1, py + ph + 1, black);
    c.fill(px - 1, py - 1, px, py + ph + 1, black);
    c.fill(px + pw, py - 1, px + pw + 1, py + ph + 1, black);
    c.text(px, py + ph + 4, "0", black);
    const std::string lx = std::to_string(nx - 1), ly = std::to_string(ny - 1);
    c.text(px + pw - Canvas::text_width(lx), py + ph + 4, lx, black);
    c.text(px - 6 - Canvas::text_width("0"), py, "0", black);
    c.text(px - 6 - Canvas::text_width(ly), py + ph - 8, ly, black);
    c.text(px + (pw - Canvas::text_width("x (elements)")) / 2, py + ph + 16, "x (elements)", black);
    c.text(px - 56, py + ph / 2 - 4, "y (rows)", black);
  }
  // Colour bar: 0 at the bottom, the largest order at the top.
  const int bx = left + static_cast<int>(cols) * pw + static_cast<int>(cols - 1) * gap_x + 30, by = top,
            bh = static_cast<int>(rows) * ph + static_cast<int>(rows - 1) * gap_y;
  for (int y = 0; y < bh; ++y)
    c.fill(bx, by + y, bx + bar_w, by + y + 1, viridis(1.0 - static_cast<double>(y) / std::max(1, bh - 1)));
  c.text(bx + bar_w + 4, by, std::to_string(vmax), black);
  c.text(bx + bar_w + 4, by + bh - 8, "0", black);
  c.text(bx + bar_w + 4, by + bh / 2 - 4, "order in memory", black);
  c.text(bx + bar_w + 4, by + bh / 2 + 6, "(elements)", black);

  std::vector<uint8_t> png;
  if (!stbi_write_png_to_func(append_bytes, &png, c.width(), c.height(), 3, c.data(), c.width() * 3) || png.empty())
    fail("cannot encode the plot as PNG");
  write_file_atomic(a.out, png.data(), png.size());
  say("plotted the order of one block of " + t.layout_arg + " (" + std::to_string(eb) + "-byte elements; " +
      block_extent_text(pat, eb) + ") into " + a.out + ": " + std::to_string(c.width()) + "x" +
      std::to_string(c.height()) + " PNG" +
      (panels < panels_all ? " (first 64 of " + std::to_string(panels_all) + " panels)" : std::string()));
}

}  // namespace swz::cli
