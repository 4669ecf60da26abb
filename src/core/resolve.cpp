// resolve_subresource (ResolveSubresourceRegion with AVERAGE, MIN, MAX):
// the sample channel of a multisampled layout combined into one texel of a
// single-sampled layout. Element values are decoded and encoded by
// core/format_convert.cpp; addresses come from SubresourceAddresser.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/addresser.hpp"
#include "core/request.hpp"
#include "core/checked_math.hpp"
#include "core/enum_names.hpp"
#include "core/format_convert.hpp"
#include "core/plan.hpp"
#include "swz/clear.hpp"

namespace swz {
namespace {

using detail::Num;

bool is_int(Num n) { return n == Num::Uint || n == Num::Sint; }

// Exact average of n UNORM / SNORM codes: the data conversion rule
// (decode to c / (2^b - 1), mean, c * (2^b - 1) then round half away from
// zero) evaluated without rounding error: sum / n, rounded.
int64_t avg_norm_codes(const int64_t* v, uint32_t n, Num num, unsigned bits) {
  int64_t sum = 0;
  const int64_t lo = -((int64_t{1} << (bits - 1)) - 1);
  for (uint32_t i = 0; i < n; ++i) sum += num == Num::Snorm ? std::max(v[i], lo) : v[i];  // SNORM: -2^(b-1) means -1.0
  const int64_t twice = 2 * sum, den = 2 * static_cast<int64_t>(n);
  if (sum >= 0) return (twice + n) / den;
  return -((-twice + n) / den);
}

}  // namespace

constexpr detail::EnumName<ResolveMode> kResolveModeNames[] = {
    {ResolveMode::Average, "average"}, {ResolveMode::Min, "min"}, {ResolveMode::Max, "max"}};

const char* resolve_mode_name(ResolveMode m) { return detail::name_of(kResolveModeNames, m, "?"); }

Status resolve_subresource(const Layout& dl, void* dst, uint64_t dst_size, const Layout& sl, const void* src,
                           uint64_t src_size, const ResolveDesc& r) {
  if (r.mode != ResolveMode::Average && r.mode != ResolveMode::Min && r.mode != ResolveMode::Max)
    return {Code::unsupported, "mode = " + std::to_string(static_cast<int>(r.mode)) + " (average, min or max)"};
  const uint32_t ns = sl.desc().samples;
  if (ns > 32) return {Code::unsupported, "source samples = " + std::to_string(ns) + " (at most 32)"};
  Status st = detail::check_operation(sl, r.src_subresource, detail::Operation::ResolveSource, "source");
  if (!st.ok()) return {st.code(), "src_subresource: " + st.message()};
  st = detail::check_operation(dl, r.dst_subresource, detail::Operation::ResolveDest, "destination");
  if (!st.ok()) return {st.code(), "dst_subresource: " + st.message()};
  const SubresourceLayout& ss = sl.sub(r.src_subresource);
  const SubresourceLayout& ds = dl.sub(r.dst_subresource);
  FormatInfo f = sl.desc().format;
  if (r.format_dxgi) {
    st = find_format(r.format_dxgi, &f);
    if (!st.ok()) return {st.code(), "format_dxgi: " + st.message()};
  }
  if (f.block_width > 1 || f.block_height > 1)
    return {Code::unsupported,
            std::string("format ") + f.name + ": block-compressed and 2x1-packed formats cannot be resolved"};
  {
    // The destination is addressed in texels = elements: its own format (which a matching
    // element size does not pin down) must not be block-compressed or 2x1-packed either.
    const FormatInfo& df = dl.desc().format;
    if (df.block_width > 1 || df.block_height > 1)
      return {Code::unsupported, std::string("destination format ") + df.name +
                                     ": block-compressed and 2x1-packed formats cannot be resolved into"};
  }
  detail::Codec c;
  st = detail::codec_for(f, ss.plane, &c);
  if (!st.ok()) return st;
  if (c.video || c.special == detail::Special::Absent || c.special >= detail::Special::BC1)
    return {Code::unsupported, std::string("format ") + f.name + " cannot be resolved"};
  if (c.element_bytes != ss.element_bytes || c.element_bytes != ds.element_bytes)
    return {Code::invalid_argument, std::string("format ") + f.name + " (" + std::to_string(c.element_bytes) +
                                        "-byte elements) does not match the source (" +
                                        std::to_string(ss.element_bytes) + " bytes) and destination (" +
                                        std::to_string(ds.element_bytes) + " bytes)"};
  if (r.mode == ResolveMode::Average)
    for (int i = 0; i < c.nfields; ++i)
      if (is_int(c.f[i].num))
        return {Code::unsupported, std::string("AVERAGE resolve of ") + f.name +
                                       ": D3D defines no average for UINT/SINT components; use min or max"};
  Rect rc{0, 0, ss.width, ss.height};
  if (!r.whole) rc = r.rect;
  // An inverted rect (left > right or top > bottom) is a caller's mistake, not an empty region: refused,
  // naming the edges. A rect of zero area (left == right or top == bottom) resolves nothing.
  if (rc.left > rc.right || rc.top > rc.bottom)
    return {Code::invalid_argument,
            std::string("rect is inverted: ") +
                (rc.left > rc.right ? "left = " + std::to_string(rc.left) + " > right = " + std::to_string(rc.right)
                                    : "top = " + std::to_string(rc.top) + " > bottom = " + std::to_string(rc.bottom))};
  if (rc.right == rc.left || rc.bottom == rc.top) return Status::Ok();
  if (rc.right > ss.width || rc.bottom > ss.height)
    return {Code::out_of_range, "rect (" + std::to_string(rc.left) + "," + std::to_string(rc.top) + ")-(" +
                                    std::to_string(rc.right) + "," + std::to_string(rc.bottom) +
                                    ") lies outside source subresource " + std::to_string(r.src_subresource) + " (" +
                                    std::to_string(ss.width) + "x" + std::to_string(ss.height) + ")"};
  const uint32_t w = rc.right - rc.left, h = rc.bottom - rc.top;
  if (uint64_t{r.dst_x} + w > ds.width || uint64_t{r.dst_y} + h > ds.height)
    return {Code::out_of_range, "destination (" + std::to_string(r.dst_x) + "," + std::to_string(r.dst_y) + ") + " +
                                    std::to_string(w) + "x" + std::to_string(h) +
                                    " lies outside destination subresource " + std::to_string(r.dst_subresource) +
                                    " (" + std::to_string(ds.width) + "x" + std::to_string(ds.height) + ")"};
  uint64_t s_end, d_end;
  if (!detail::add_ok(ss.offset, ss.size, &s_end) || !detail::add_ok(ds.offset, ds.size, &d_end))
    return {Code::overflow, "subresource end does not fit in 64 bits"};
  if (src_size < s_end)
    return {Code::buffer_too_small, "source buffer is " + std::to_string(src_size) + " bytes; subresource " +
                                        std::to_string(r.src_subresource) + " ends at byte " + std::to_string(s_end)};
  if (dst_size < d_end)
    return {Code::buffer_too_small, "destination buffer is " + std::to_string(dst_size) + " bytes; subresource " +
                                        std::to_string(r.dst_subresource) + " ends at byte " + std::to_string(d_end)};
  if (!dst || !src) return {Code::invalid_argument, dst ? "source = null" : "destination = null"};
  SWZ_TRY(detail::check_memory_disjoint(
      detail::MemoryRange(static_cast<const uint8_t*>(src) + ss.offset, ss.size, "source subresource",
                          r.src_subresource),
      detail::MemoryRange(static_cast<const uint8_t*>(dst) + ds.offset, ds.size, "destination subresource",
                          r.dst_subresource)));
  const auto* in = static_cast<const uint8_t*>(src);
  auto* out = static_cast<uint8_t*>(dst);
  detail::SubresourceAddresser sa(ss, sl.plan(r.src_subresource)), da(ds, dl.plan(r.dst_subresource));
  const uint64_t eb = c.element_bytes;
  const bool plain = c.special == detail::Special::None;
  uint8_t samples_e[32][16], res[16];
  double vals[32][4] = {};
  int64_t codes[32][4];
  // Decoded values are needed for FLOAT and sRGB fields and the packed float formats;
  // UNORM/SNORM averages and every integer-coded min/max work on the codes alone.
  bool need_vals = !plain;
  for (int i = 0; i < c.nfields; ++i)
    if (c.f[i].num == Num::Float || c.f[i].num == Num::Srgb) need_vals = true;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      const uint64_t sx = uint64_t{rc.left + x} * eb, sy = rc.top + y;
      for (uint32_t s = 0; s < ns; ++s) {
        std::memcpy(samples_e[s], in + sa.offset_B(sx, sy, 0, s), eb);
        if (need_vals) detail::decode_fields(c, samples_e[s], vals[s]);
        if (plain)
          for (int i = 0; i < c.nfields; ++i) {
            const uint64_t b = detail::get_bits(samples_e[s], c.f[i].offset, c.f[i].bits);
            const bool neg = (c.f[i].num == Num::Snorm || c.f[i].num == Num::Sint) && ((b >> (c.f[i].bits - 1)) & 1);
            codes[s][i] = neg ? static_cast<int64_t>(b) - (int64_t{1} << c.f[i].bits) : static_cast<int64_t>(b);
          }
      }
      std::memcpy(res, samples_e[0], eb);  // bits no field covers come from sample 0; X fields are written 0
      const int nf = plain ? c.nfields : 3;
      double outv[4] = {};
      bool have_bits[4] = {};
      uint64_t bits[4] = {};
      bool encode = !plain;
      for (int i = 0; i < nf; ++i) {
        const Num num = plain ? c.f[i].num : Num::Float;
        const bool coded = num == Num::Unorm || num == Num::Snorm || num == Num::Uint || num == Num::Sint;
        if (num == Num::Zero) continue;
        if (r.mode == ResolveMode::Average) {
          if (num == Num::Unorm || num == Num::Snorm) {
            int64_t col[32];
            for (uint32_t s = 0; s < ns; ++s) col[s] = codes[s][i];
            const int64_t q = avg_norm_codes(col, ns, num, c.f[i].bits);
            have_bits[i] = true;
            bits[i] = static_cast<uint64_t>(q) & ((uint64_t{1} << c.f[i].bits) - 1);
          } else {
            double sum = 0;
            for (uint32_t s = 0; s < ns; ++s) sum += vals[s][i];
            outv[i] = sum / ns;
            encode = true;
          }
        } else {
          // Min/Max: the winning sample. Integer-coded fields compare their codes (SNORM's
          // -2^(b-1) counts as -(2^(b-1)-1): both mean -1.0); floats compare values, IEEE
          // minNum/maxNum (a NaN loses to a number). Ties keep the first sample.
          uint32_t best = 0;
          if (plain && coded) {
            const int64_t lo = num == Num::Snorm ? -((int64_t{1} << (c.f[i].bits - 1)) - 1) : INT64_MIN;
            for (uint32_t s = 1; s < ns; ++s) {
              const int64_t a = std::max(codes[s][i], lo), b = std::max(codes[best][i], lo);
              if (r.mode == ResolveMode::Min ? a < b : a > b) best = s;
            }
          } else {
            for (uint32_t s = 1; s < ns; ++s) {
              const double a = vals[s][i], b = vals[best][i];
              if (std::isnan(b) || (r.mode == ResolveMode::Min ? a < b : a > b)) best = s;
            }
            outv[i] = vals[best][i];
          }
          if (plain) {  // the sample's own field bits (keeps -2^(b-1) SNORM codes, NaN payloads)
            have_bits[i] = true;
            bits[i] = detail::get_bits(samples_e[best], c.f[i].offset, c.f[i].bits);
          }
        }
      }
      if (plain) {
        uint8_t tmp[16];
        if (encode) {
          std::memcpy(tmp, res, eb);
          detail::encode_fields(c, outv, tmp);
        }
        for (int i = 0; i < c.nfields; ++i) {
          const detail::Field& fd = c.f[i];
          const uint64_t v = fd.num == Num::Zero ? 0
                             : have_bits[i]      ? bits[i]
                                                 : detail::get_bits(tmp, fd.offset, fd.bits);
          detail::put_bits(res, fd.offset, fd.bits, v);
        }
      } else {
        detail::encode_fields(c, outv, res);
      }
      std::memcpy(out + da.offset_B(uint64_t{r.dst_x + x} * eb, r.dst_y + y, 0, 0), res, eb);
    }
  return Status::Ok();
}

}  // namespace swz
