// swz CLI — `swz view` answers (view_routes.hpp).
#include "view_routes.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

#include "common.hpp"
#include "query.hpp"
#include "swz/address.hpp"
#include "swz/dds.hpp"
#include "swz/decode.hpp"
#include "swz/identify.hpp"
#include "swz/layout_names.hpp"
#include "texture.hpp"

namespace swz::cli {

/// The embedded page (src/cli/view/, cmake/embed.cmake); nullptr for other names.
const char* view_asset(const char* name);

namespace {

using nlohmann::json;

ViewReply json_reply(const json& j) {
  ViewReply r;
  r.body = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return r;
}

ViewReply error_reply(int status, const std::string& message) {
  ViewReply r = json_reply(json{{"error", message}});
  r.status = status;
  return r;
}

// The texture the request describes, laid out.
Texture texture_of(const ViewRequest& r) { return make_texture(r.texture, parse_size(r.texture.size)); }

// The resource: the dump from the request's offset on.
struct Resource {
  const uint8_t* data = nullptr;
  uint64_t size_B = 0;
  uint64_t base_B = 0;  ///< where it starts in the dump
};
Resource resource_of(const ViewSession& s, const Texture& t, const ViewRequest& r) {
  Resource res;
  res.base_B = resource_base(r.texture, t.layout.size());
  if (res.base_B >= s.dump.size)
    fail("offset " + std::to_string(res.base_B) + " is at or past the end of the dump (" + bytes_text(s.dump.size) +
         ")");
  res.data = s.dump.data() + res.base_B;
  res.size_B = s.dump.size - res.base_B;
  return res;
}

// The subresource of (mip, slice), plane 0, as the layout numbers it.
const SubresourceLayout& subresource_of(const Texture& t, const ViewRequest& r) {
  for (uint32_t i = 0; i < t.layout.subresource_count(); ++i) {
    const SubresourceLayout& s = t.layout.sub(i);
    if (s.mip == r.mip && s.array_slice == r.slice && s.plane == 0) return s;
  }
  fail("mip " + std::to_string(r.mip) + ", slice " + std::to_string(r.slice) + ": a " + t.describe() +
       " texture has mips 0.." + std::to_string(t.desc.mip_levels - 1) + " and slices 0.." +
       std::to_string(t.desc.array_size - 1));
}

void check_pixels(uint64_t px, const std::string& what) {
  if (px > kMaxDecoded_px)
    fail(what + " has " + std::to_string(px) + " pixels; swz view decodes at most " + std::to_string(kMaxDecoded_px) +
         " (64 Mpx) per request");
}

ViewReply info(const ViewSession& s) {
  json layouts = json::array();
  for (const LayoutListing& l : layout_listing())
    if (l.name.find('.') == std::string::npos) layouts.push_back(l.name);
  const CommonOptions& t = s.defaults.texture;
  return json_reply(json{{"dump", s.dump_path},
                         {"dump_B", s.dump.size},
                         {"layout", t.layout},
                         {"format", t.format},
                         {"size", t.size},
                         {"offset", t.offset.empty() ? "0" : t.offset},
                         {"mips", t.mips},
                         {"array", t.array},
                         {"palette", !s.defaults.view.palette.empty()},
                         {"max_px", kMaxDecoded_px},
                         {"layouts", layouts}});
}

ViewReply identify_route(const ViewSession& s, const ViewRequest& r) {
  const SizeArg size = parse_size(r.texture.size);
  if (!size.given) fail("size is required (WxH) to rank layouts");
  if (size.three_d) fail("size " + r.texture.size + ": identify takes one 2D texture (WxH)");
  check_pixels(uint64_t{size.width} * size.height, "the texture");
  IdentifyOptions o;
  o.top = r.top;
  o.offset_B = input_offset(r.texture);
  o.offset_step_B = r.offset_step_B;
  std::vector<IdentifyCandidate> got;
  check(identify({s.dump.data(), s.dump.size}, lookup_format(r.texture.format), size.width, size.height, o, &got),
        "identify");
  json list = json::array();
  for (const IdentifyCandidate& c : got)
    list.push_back(json{{"layout", c.layout},
                        {"score", c.score},
                        {"equivalents", c.equivalents},
                        {"offset", c.offset_B},
                        {"short", c.short_B}});
  return json_reply(json{{"candidates", list}, {"offset", o.offset_B}});
}

ViewReply decode_route(const ViewSession& s, const ViewRequest& r) {
  const Texture t = texture_of(r);
  const SubresourceLayout& sub = subresource_of(t, r);
  check_pixels(uint64_t{sub.width} * sub.height, "mip " + std::to_string(r.mip));
  const Resource res = resource_of(s, t, r);
  Box box;
  box.right = sub.width;
  box.bottom = sub.height;
  box.front = r.z;
  box.back = r.z + 1;
  const uint64_t bytes = uint64_t{sub.width} * sub.height * 4;
  ViewReply reply;
  reply.content_type = "application/octet-stream";
  reply.body.resize(bytes);
  DecodeOptions opts = r.view.decode();
  Palette palette;
  if (!r.view.palette.empty()) {
    load_palette(r.view.palette, &palette);
    opts.palette = &palette.image;
  }
  check(decode_subresource_rgba8(t.layout, res.data, res.size_B, sub.index, &box, opts,
                                 reinterpret_cast<uint8_t*>(reply.body.data()), bytes),
        "decode " + sub_name(sub, t.desc) + " (z " + std::to_string(r.z) + ")");
  reply.headers = {{"X-Swz-Width", std::to_string(sub.width)},
                   {"X-Swz-Height", std::to_string(sub.height)},
                   {"X-Swz-Block", std::to_string(t.format.block_width) + "x" + std::to_string(t.format.block_height)},
                   {"X-Swz-Subresource", std::to_string(sub.index)}};
  return reply;
}

std::string hex_of(const uint8_t* p, uint64_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (uint64_t i = 0; i < n; ++i) {
    out += kDigits[p[i] >> 4];
    out += kDigits[p[i] & 15];
  }
  return out;
}

ViewReply texel_route(const ViewRequest& r) {
  const Texture t = texture_of(r);
  const SubresourceLayout& sub = subresource_of(t, r);
  const uint64_t base = resource_base(r.texture, t.layout.size());
  const uint64_t at = element_file_offset(t, base, sub.index, r.x, r.y, r.z, r.sample);
  return json_reply(json{{"offset_B", at},
                         {"element_B", sub.element_bytes},
                         {"subresource", sub.index},
                         {"mip", sub.mip},
                         {"slice", sub.array_slice}});
}

ViewReply locate_route(const ViewRequest& r) {
  const Texture t = texture_of(r);
  const uint64_t base = resource_base(r.texture, t.layout.size());
  const uint64_t off = resource_offset(t, base, r.at_B, [&] { return std::to_string(r.at_B); });
  Location l;
  check(locate(t.layout, off, &l), "locate " + std::to_string(r.at_B));
  const SubresourceLayout& sub = t.layout.sub(l.subresource);
  return json_reply(json{{"at", r.at_B},         {"padding", l.padding}, {"packed", l.packed},
                         {"subresource", l.subresource}, {"mip", sub.mip},       {"slice", sub.array_slice},
                         {"x", l.x},             {"y", l.y},             {"z", l.z},
                         {"sample", l.sample},   {"byte", l.byte}});
}

ViewReply bytes_route(const ViewSession& s, const ViewRequest& r) {
  if (r.at_B >= s.dump.size)
    fail("at " + std::to_string(r.at_B) + " is at or past the end of the dump (" + bytes_text(s.dump.size) + ")");
  const uint64_t n = std::min<uint64_t>(r.count_B, s.dump.size - r.at_B);
  return json_reply(json{{"at", r.at_B}, {"hex", hex_of(s.dump.data() + r.at_B, n)}});
}

// The subresource read into tight linear elements, as deswizzle reads it.
std::vector<uint8_t> read_linear(const Resource& res, const Texture& t, const SubresourceLayout& sub) {
  if (sub.packed) fail(sub_name(sub, t.desc) + " lies in the D3D12 packed mip tail, whose layout is adapter-specific");
  const Packed p = packed_of(sub);
  std::vector<uint8_t> linear = allocate(p.bytes, "the linear subresource");
  check(read_from_subresource(linear.data(), p.bytes, p.row, p.slice, t.layout, res.data, res.size_B, sub.index,
                              nullptr),
        "cannot read " + sub_name(sub, t.desc));
  return linear;
}

ViewReply png_route(const ViewSession& s, const ViewRequest& r) {
  const Texture t = texture_of(r);
  const SubresourceLayout& sub = subresource_of(t, r);
  check_pixels(uint64_t{sub.width} * sub.height * sub.depth, sub_name(sub, t.desc));
  const std::vector<uint8_t> linear = read_linear(resource_of(s, t, r), t, sub);
  ViewReply reply;
  reply.content_type = "image/png";
  write_subresource_png([&reply](const uint8_t* data, size_t n) { reply.body.append(reinterpret_cast<const char*>(data), n); },
                        "the PNG", linear.data(), sub, t.format, r.view);
  return reply;
}

ViewReply dds_route(const ViewSession& s, const ViewRequest& r) {
  const Texture t = texture_of(r);
  uint64_t px = 0;
  for (uint32_t i = 0; i < t.layout.subresource_count(); ++i) {
    const SubresourceLayout& sub = t.layout.sub(i);
    px += uint64_t{sub.width} * sub.height * sub.depth;
  }
  check_pixels(px, "the texture");
  const Resource res = resource_of(s, t, r);
  DdsTexture tex;
  tex.desc = t.desc;
  uint64_t total = 0;
  check(dds_data_size(t.desc, &total), "cannot write a " + t.describe() + " texture as DDS");
  tex.data = allocate(total, "the DDS texels");
  uint64_t at = 0;
  for (uint32_t i = 0; i < t.layout.subresource_count(); ++i) {
    const SubresourceLayout& sub = t.layout.sub(i);
    const Packed p = packed_of(sub);
    if (!sub.packed)  // packed mips stay zero, as deswizzle writes them
      check(read_from_subresource(tex.data.data() + at, p.bytes, p.row, p.slice, t.layout, res.data, res.size_B, i,
                                  nullptr),
            "cannot read " + sub_name(sub, t.desc));
    at += p.bytes;
  }
  std::vector<uint8_t> file;
  check(write_dds(tex, &file), "cannot write the DDS file");
  ViewReply reply;
  reply.content_type = "application/octet-stream";
  reply.body.assign(file.begin(), file.end());
  return reply;
}

ViewReply command_route(const ViewSession& s, const ViewRequest& r) {
  const Texture t = texture_of(r);
  return json_reply(json{{"command", deswizzle_command(r, s.dump_path, subresource_of(t, r).index)}});
}

ViewReply answer(const ViewSession& s, const std::string& path, const QueryParams& params) {
  if (path == "/" || path == "/index.html") {
    ViewReply page;
    page.content_type = "text/html; charset=utf-8";
    page.body = view_asset("index.html");
    return page;
  }
  if (path == "/api/info") return info(s);
  const ViewRequest r = parse_view_request(params, s.defaults);
  if (path == "/api/identify") return identify_route(s, r);
  if (path == "/api/decode") return decode_route(s, r);
  if (path == "/api/texel") return texel_route(r);
  if (path == "/api/locate") return locate_route(r);
  if (path == "/api/bytes") return bytes_route(s, r);
  if (path == "/api/png") return png_route(s, r);
  if (path == "/api/dds") return dds_route(s, r);
  if (path == "/api/command") return command_route(s, r);
  return error_reply(404, "no such page: " + path.substr(0, 64));
}

}  // namespace

bool view_route_is_heavy(const std::string& path) {
  return path == "/api/identify" || path == "/api/decode" || path == "/api/png" || path == "/api/dds";
}

ViewReply view_route(const ViewSession& session, const std::string& path, const QueryParams& params) noexcept {
  try {
    return answer(session, path, params);
  } catch (const std::bad_alloc&) {
    return error_reply(400, "out of memory");
  } catch (const std::exception& e) {
    try {
      return error_reply(400, e.what());
    } catch (...) {
    }
  }
  ViewReply fallback;
  fallback.status = 500;
  return fallback;
}

}  // namespace swz::cli
