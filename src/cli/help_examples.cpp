// The examples of the command-line help, as data (help_examples.hpp).
#include "help_examples.hpp"

#include <string>
#include <string_view>

namespace swz::cli {
namespace {

struct Example {
  const char* command;  ///< "" = the top-level `swz --help`
  const char* line;
};

const Example kExamples[] = {
    {"", "swz swizzle --layout std64k photo.png photo.std64k.bin"},
    {"", "swz deswizzle --layout std64k --size 600x400 photo.std64k.bin photo.png"},
    {"", "swz offset --layout std64k --format R8G8B8A8_UNORM --size 600x400 17 3"},
    {"", "swz locate --layout std64k --format R8G8B8A8_UNORM --size 600x400 0x1234"},
    {"", "swz layouts"},
    {"", "swz identify --format R8G8B8A8_UNORM --size 600x400 dump.bin"},
    {"", "swz infer --format R32_UINT --size 256x256 probe.bin"},
    {"", "swz view --size 600x400 dump.bin"},
    {"view", "swz view --size 600x400 dump.bin                      # prints http://127.0.0.1:PORT/?token=..."},
    {"view", "swz view --layout std64k --format BC7_UNORM --size 512x512 --mips full tex.bin --open"},
    {"view", "swz view --size 600x400 --listen 192.168.1.5 --port 8080 dump.bin   # reachable from the network"},
    {"swizzle", "swz swizzle --layout std64k photo.png photo.std64k.bin"},
    {"swizzle", "swz swizzle --layout std64k --mips full --array 6 photo.png slices.bin"},
    {"swizzle", "swz swizzle --layout std4k --format BC1_UNORM --size 1024x1024 --mips full tex.bc1.raw tex.std4k.bin"},
    {"swizzle", "swz swizzle --layout nv-block-linear:gob=tegra,bh=8 texture.dds texture.bin"},
    {"swizzle", "cat photo.png | swz swizzle --layout std64k - - > photo.std64k.bin"},
    {"swizzle", "swz swizzle --layout std64k --mips 0 -o out/ a.png b.png c.dds     # out/a.bin out/b.bin out/c.bin"},
    {"deswizzle", "swz deswizzle --layout std64k --size 600x400 photo.std64k.bin photo.png"},
    {"deswizzle",
     "swz deswizzle --layout std64k --size 600x400 --mips full --array 6 --subresource 13 slices.bin mip3.png"},
    {"deswizzle",
     "swz deswizzle --layout std4k --format BC1_UNORM --size 1024x1024 --mips full tex.std4k.bin tex.bc1.raw"},
    {"deswizzle",
     "swz deswizzle --layout std64k --format BC7_UNORM --size 512x512 --mips full --array 6 --cube sky.bin sky.dds"},
    {"deswizzle",
     "swz deswizzle --layout nv-block-linear --size 256x256 --offset 0x1000 --allow-short dump.bin tex.png"},
    {"deswizzle", "swz deswizzle --layout std64k --size 600x400 --out-type png photo.std64k.bin - | display"},
    {"deswizzle",
     "swz deswizzle --layout std64k --size 600x400 --out-type png -y -o pngs/ a.bin b.bin   # pngs/a.png pngs/b.png"},
    {"offset", "swz offset --layout std64k --format R8G8B8A8_UNORM --size 600x400 17 3"},
    {"offset", "swz offset --layout std64k --format R8G8B8A8_UNORM --size 600x400 --hex 0,0 1,0 0,1"},
    {"offset", "seq 0 15 | sed 's/$/ 0/' | swz offset --layout std4k --format R8_UNORM --size 64x64 -"},
    {"locate", "swz locate --layout std64k --format R8G8B8A8_UNORM --size 600x400 0x834"},
    {"locate", "swz locate --layout std64k --format R8G8B8A8_UNORM --size 600x400 0 4 0x100"},
    {"locate", "printf '0x10\\n0x20\\n' | swz locate --layout std64k --format R8_UNORM --size 256x256 -"},
    {"info", "swz info --layout std64k --format BC7_UNORM --size 4096x4096 --mips full"},
    {"info", "swz info --layout nv-block-linear:gob=tegra,bh=8 --format R8G8B8A8_UNORM --size 600x400 --mips 3"},
    {"layouts", "swz layouts"},
    {"layouts", "swz layouts --verbose"},
    {"layouts", "swz layouts --show std64k --element-bytes 8"},
    {"layouts", "swz layouts --show nv-block-linear:gob=tegra,bh=16"},
    {"canonicalize", "swz canonicalize --block 256x64 'X0 X1 X2 X3 Y0 Y1 Y2 X4 Y3 X5^Y4 Y5 X6'"},
    {"formats", "swz formats | grep BC7"},
    {"identify", "swz identify --format R8G8B8A8_UNORM --size 600x400 dump.bin"},
    {"identify", "swz identify --format R8G8B8A8_UNORM --size 600x400 --top 3 --thumbnails thumbs dump.bin"},
    {"infer", "swz infer --format R32_UINT --size 256x100 probe.bin"},
    {"infer", "swz infer --format R32_UINT --size 256x256 --offset 0x10000 probe.bin"},
    {"compare", "swz compare photo.png roundtrip.png"},
    {"compare", "swz compare -q a.png b.png && echo same"},
    {"plot", "swz plot --layout std64k --format R32_UINT std64k-32bpp.png"},
    {"plot", "swz plot --pattern 'X0 Y0 X1 Y1 X2 Y2' morton.png"},
    {"plot", "swz plot --layout nv-block-linear:bh=2 --format R8G8B8A8_UNORM --print gob.png"},
    {"retile",
     "swz retile --from std64k --to nv-block-linear --format BC7_UNORM --size 1024x1024 --mips full a.bin b.bin"},
    {"retile",
     "swz retile --from amd-gfx10-sw64k-s-x --to row-major -f R8G8B8A8_UNORM -s 512x512 --array 6 in.bin out.bin"},
    {"retile",
     "cat dump.bin | swz retile --from std64k --to row-major -f R8_UNORM -s 256x256 --offset 0x1000 - linear.bin"},
};

}  // namespace

void set_examples(CLI::App* app, const char* command, const char* intro, const char* outro) {
  std::string lines;
  int n = 0;
  for (const Example& e : kExamples) {
    if (std::string_view(e.command) != command) continue;
    lines += std::string(n++ ? "\n" : "") + "  " + e.line;
  }
  std::string text = std::string(intro) + (n == 1 ? "Example:\n" : "Examples:\n") + lines;
  if (*outro) text += std::string("\n") + outro;
  app->footer(text);
}

}  // namespace swz::cli
