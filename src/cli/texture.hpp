// swz CLI — the common texture options and the layout they describe.
#pragma once
#include <memory>
#include <cstdint>
#include <optional>
#include <string>

#include "swz/copy.hpp"
#include "swz/layout.hpp"
#include "swz/layout_names.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace swz::cli {

/// Options every texture command takes (--layout, --format, --size, ...).
struct CommonOptions {
  std::string layout;
  /// The option `layout` came from, as error messages name it: "--layout",
  /// or retile's "--from" / "--to".
  std::string layout_option = "--layout";
  std::string format;
  std::string size;
  std::string mips;  ///< "" = 1, a number >= 1, or "full"
  uint32_t array = 1;
  uint32_t samples = 1;
  std::string mip_tail = "none";
  std::string packed_mips;     ///< "STANDARD,PACKED,TILES" (D3D12_PACKED_MIP_INFO) for --mip-tail d3d12
  std::string pattern;         ///< --pattern TEXT: the same as --layout 'pattern:TEXT'
  uint64_t row_pitch = 0;      ///< --row-pitch, bytes
  uint64_t depth_pitch = 0;    ///< --depth-pitch: one number, rows for a stacked-depth pattern, else bytes
  uint64_t depth_pitch_B = 0;  ///< --depth-pitch-B, bytes
  uint64_t stack_rows = 0;     ///< --stack-rows, rows
  std::string backend = "auto";
  unsigned threads = 0;
  std::string device = "cpu";  ///< --device cpu|gpu
  std::string offset;          ///< --offset N: the resource (or linear data) starts N bytes into IN
  bool allow_short = false;    ///< deswizzle --allow-short
  /// The options as added, to tell "given" from "default".
  CLI::Option *size_opt = nullptr, *format_opt = nullptr, *mips_opt = nullptr, *array_opt = nullptr,
              *samples_opt = nullptr, *row_pitch_opt = nullptr, *depth_pitch_opt = nullptr,
              *depth_pitch_B_opt = nullptr, *stack_rows_opt = nullptr, *mip_tail_opt = nullptr;
};

/// What one command does with the common options: their help texts say what
/// holds for that command, and options it ignores are not added.
struct CommonOptionUse {
  const char* format_help;              ///< --format: how the command defaults it, or that it is required
  bool copies = false;                  ///< copies texels: --backend, --threads, --device
  const char* offset_help = nullptr;    ///< --offset into IN; nullptr for a command without IN
};

/// Adds the common options to a subcommand. --layout (or --pattern) is
/// mandatory.
void add_common_options(CLI::App* app, CommonOptions* o, const CommonOptionUse& use);

/// Points the "given" checks of `o` at the options of `parsed`, the
/// subcommand that ran (several subcommands share one CommonOptions, and each
/// add_common_options call re-points them).
void bind_common_options(CLI::App* parsed, CommonOptions* o);

/// --size parsed: WxH (2D) or WxHxD (3D, even x1).
struct SizeArg {
  bool given = false;
  bool three_d = false;
  uint32_t width = 0, height = 0, depth = 1;
};
SizeArg parse_size(const std::string& text);

/// A texture laid out as the options say.
struct Texture {
  FormatInfo format{};
  TextureDesc desc{};
  LayoutOptions options{};
  Layout layout{};
  std::string layout_arg;
  /// "600x400 R8G8B8A8_UNORM, 1 mip, 1 array slice".
  std::string describe() const;
};

/// "subresource 5 (mip 1, slice 1)", with the plane for planar formats and a
/// note for packed mips.
std::string sub_name(const SubresourceLayout& s, const TextureDesc& d);

/// Looks the format up (throws Error naming --format).
FormatInfo lookup_format(const std::string& name);

/// Validates the options, builds TextureDesc + LayoutSpec and calls
/// make_layout (or the layout's own builder). A resource-layout JSON fixes the
/// texture itself: then --size, --format, ... are optional and must agree.
/// Throws Error with the library's message.
/// `file_desc`: the texture an input file fixes (a DDS file), named by
/// `file_what` in messages.
Texture make_texture(const CommonOptions& o, const SizeArg& size, const std::optional<TextureDesc>& file_desc = {},
                     const std::string& file_what = {});

/// The TextureDesc the options describe (--size, --format, --mips, --array, --samples).
TextureDesc desc_from_options(const CommonOptions& o, const SizeArg& size);
/// `base` (kind, pattern) with the options' pitches and mip tail.
LayoutOptions options_from(const CommonOptions& o, const LayoutName& name);

/// The texture a resource-layout JSON fixes (nullopt for every other layout).
std::optional<TextureDesc> fixed_texture(const CommonOptions& o);

/// --offset as a number (0 when not given); throws Error naming --offset.
uint64_t input_offset(const CommonOptions& o);
/// input_offset, refused (fail) when the resource of resource_size_B bytes
/// starting there would end past 2^64 - 1: file offsets printed or parsed
/// relative to it could not be represented.
uint64_t resource_base(const CommonOptions& o, uint64_t resource_size_B);

/// CopyOptions from --backend / --threads.
CopyOptions copy_options(const CommonOptions& o);

/// Runs the copies of one command on the device --device picks: the CPU
/// kernels (with --backend / --threads) or the Vulkan compute path.
class Copier {
 public:
  explicit Copier(const CommonOptions& o);  ///< fails (exits) when --device gpu has no Vulkan device
  ~Copier();
  /// With --device gpu: fails (exits) unless the GPU can convert every
  /// subresource of `layout` (device limits), before anything is read or allocated.
  void check(const Layout& layout, const std::string& what);
  Status write(const Layout& layout, void* resource, uint64_t resource_size, uint32_t subresource, const void* src,
               uint64_t src_size, uint64_t row_pitch, uint64_t depth_pitch);
  Status read(void* dst, uint64_t dst_size, uint64_t row_pitch, uint64_t depth_pitch, const Layout& layout,
              const void* resource, uint64_t resource_size, uint32_t subresource);

 private:
  CopyOptions cpu_;
  std::string backend_;
  unsigned threads_ = 0;
  struct Gpu;
  std::unique_ptr<Gpu> gpu_;
  template <class F>
  Status route(F&& copy);
};

/// --verbose: the layout's size, patterns and blocks, and the placement of
/// its first subresources, on stderr.
void verbose_geometry(const Layout& layout, const std::string& what);

/// Tight linear pitches of a subresource: row = width_el * element_bytes,
/// slice = row * height_el.
struct Packed {
  uint64_t row = 0, slice = 0, bytes = 0;
};
Packed packed_of(const SubresourceLayout& s);

}  // namespace swz::cli
