// Reliability cases (docs/RELIABILITY.md): failures of the
// system under the library (threads refused) and inputs sized to exhaust time
// or memory. Each case asserts a clean Status and a correct or untouched
// output, never an abort.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/layout_work.hpp"
#include "core/parallel.hpp"
#include "swz/swz.hpp"

using namespace swz;

namespace {

TextureDesc desc_of(const char* format, uint32_t w, uint32_t h, uint32_t depth = 1) {
  TextureDesc d;
  EXPECT_TRUE(find_format(format, &d.format).ok()) << format;
  d.width = w;
  d.height = h;
  if (depth > 1) {
    d.dimension = Dimension::Texture3D;
    d.depth = depth;
  }
  return d;
}

Layout std64k(const TextureDesc& d) {
  LayoutSpec spec;
  spec.kind = LayoutKind::Std64K;
  Layout L;
  const Status st = make_layout(d, spec, &L);
  EXPECT_TRUE(st.ok()) << st.message();
  return L;
}

// Restores the thread-start budget when a test ends, pass or fail.
struct ThreadBudget {
  explicit ThreadBudget(long n) { detail::g_thread_start_budget_for_testing = n; }
  ~ThreadBudget() { detail::g_thread_start_budget_for_testing = -1; }
};

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;  // sanitizers abort on a refused mapping by design
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Bytes of address space this process maps now (/proc/self/statm, first field in pages).
uint64_t mapped_bytes() {
  unsigned long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%lu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return uint64_t{pages} * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace

// The real failure, not the hook: in a child process whose address space is
// capped 64 MiB above what it maps, std::thread cannot map an 8 MiB stack
// after a few threads. The copy must still finish correctly (exit 0), not
// abort with "terminate called without an active exception".
TEST(Reliability, ThreadsRefusedByAddressSpaceLimit) {
  if (kSanitized) GTEST_SKIP() << "sanitizer runtimes abort on refused mappings";
  const Layout L = std64k(desc_of("R8_UNORM", 2048, 2048));
  const uint64_t rp = 2048, dp = rp * 2048;
  std::vector<uint8_t> lin(dp), res(L.size()), want(L.size()), back(dp);
  for (size_t i = 0; i < lin.size(); ++i) lin[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
  CopyOptions one;
  one.threads = 1;
  ASSERT_TRUE(write_to_subresource(L, want.data(), want.size(), 0, nullptr, lin.data(), lin.size(), rp, dp, one).ok());
  std::fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const rlimit lim{mapped_bytes() + (uint64_t{64} << 20), RLIM_INFINITY};
    if (setrlimit(RLIMIT_AS, &lim) != 0) _exit(3);
    CopyOptions o;
    o.threads = 1000;
    if (!write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), rp, dp, o).ok()) _exit(4);
    if (res != want) _exit(5);
    if (!read_from_subresource(back.data(), back.size(), rp, dp, L, res.data(), res.size(), 0, nullptr, o).ok())
      _exit(6);
    _exit(back == lin ? 0 : 7);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

// std::thread throws std::system_error when the system refuses a thread
// (EAGAIN: thread limit, address space). The copy must not destroy a vector of
// joinable threads (std::terminate, a Python interpreter included): the parts
// whose thread did not start run on the calling thread and the result equals
// the one-thread copy.
TEST(Reliability, RefusedThreadsStillCopyEverything) {
  for (const TextureDesc& d : {desc_of("R8_UNORM", 1024, 1024), desc_of("R8G8B8A8_UNORM", 64, 64, 64)}) {
    const Layout L = std64k(d);
    const SubresourceLayout& s = L.sub(0);
    const uint64_t rp = uint64_t{s.width_el} * s.element_bytes, dp = rp * s.height_el;
    std::vector<uint8_t> lin(dp * s.depth);
    for (size_t i = 0; i < lin.size(); ++i) lin[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
    std::vector<uint8_t> want(L.size(), 0), back(lin.size());
    CopyOptions one;
    one.threads = 1;
    ASSERT_TRUE(
        write_to_subresource(L, want.data(), want.size(), 0, nullptr, lin.data(), lin.size(), rp, dp, one).ok());
    for (long budget : {0L, 1L, 3L})
      for (unsigned threads : {8u, 200000u}) {
        SCOPED_TRACE("budget " + std::to_string(budget) + ", threads " + std::to_string(threads));
        ThreadBudget guard(budget);
        CopyOptions o;
        o.threads = threads;
        std::vector<uint8_t> res(L.size(), 0);
        ASSERT_TRUE(
            write_to_subresource(L, res.data(), res.size(), 0, nullptr, lin.data(), lin.size(), rp, dp, o).ok());
        EXPECT_TRUE(res == want);
        std::fill(back.begin(), back.end(), 0);
        ASSERT_TRUE(
            read_from_subresource(back.data(), back.size(), rp, dp, L, res.data(), res.size(), 0, nullptr, o).ok());
        EXPECT_TRUE(back == lin);
      }
  }
}

// Postamble terms above the block make make_layout verify the surface block
// by block. A tiny pattern on R8 65536x65536 has 2^24 blocks of 16x16 per
// slice, and up to 2^20 slices are accepted: slices of one geometry share
// one walk, and one layout walks at most 2^24 blocks in all; past that it is
// refused with a message. The bound on time here is generous (a DoS guard,
// not a benchmark): a walk per slice would take minutes.
TEST(Reliability, HighPostambleLayoutWorkIsBounded) {
  Pattern p;
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 Y0 Y1 Y2 Y3 post8=X20", &p).ok());
  LayoutSpec spec;
  spec.kind = LayoutKind::Pattern;
  spec.pattern = p;
  TextureDesc d = desc_of("R8_UNORM", 65536, 65536);
  Layout one;
  ASSERT_TRUE(make_layout(d, spec, &one).ok());
  const detail::LayoutWork one_work = detail::last_layout_work();
  EXPECT_EQ(one_work.walked_blocks, uint64_t{1} << 24);  // 65536 x 65536 bytes in 16 x 16 blocks
  d.array_size = 256;
  Layout many;
  const Status st = make_layout(d, spec, &many);
  ASSERT_TRUE(st.ok()) << st.message();
  // Work, not time: 256 slices of one geometry walk the blocks of one slice.
  EXPECT_EQ(detail::last_layout_work().walked_blocks, one_work.walked_blocks);
  EXPECT_EQ(detail::last_layout_work().placed, 1u);
  ASSERT_EQ(many.subresource_count(), 256u);
  for (uint32_t i = 0; i < 256; ++i) EXPECT_EQ(many.sub(i).size, one.sub(0).size) << i;
  // 2^20 slices: still one walk.
  d.array_size = 1u << 20;
  EXPECT_TRUE(make_layout(d, spec, &many).ok());
  // Distinct geometries add up: a full mip chain walks 2^24 + 2^22 + ... blocks.
  d.array_size = 1;
  d.mip_levels = 17;
  Layout keep = one;
  const Status refused = make_layout(d, spec, &keep);
  EXPECT_EQ(refused.code(), Code::unsupported) << refused.message();
  EXPECT_NE(refused.message().find("at most 2^24 blocks per layout"), std::string::npos) << refused.message();
  EXPECT_EQ(keep.subresource_count(), 1u);  // left as it was
  // A smaller chain fits.
  d.width = d.height = 16384;
  d.mip_levels = 15;
  EXPECT_TRUE(make_layout(d, spec, &keep).ok());
}

// The block walk (with a bitmap of representatives and only the basis
// vectors there are) against a brute-force oracle: every byte of every whole
// block through reference_offset. make_layout accepts exactly when no two
// blocks share a byte, and the subresource's span covers every byte.
TEST(Reliability, HighPostambleWalkMatchesBruteForce) {
  std::mt19937 rng(1818);
  const char* terms[] = {"X4", "X5", "X6", "Y4", "Y5", "Y6", "X4^Y4", "X5^Y6"};
  int accepted = 0, refused = 0;
  for (int it = 0; it < 300; ++it) {
    std::string text = "X0 X1 X2 X3 Y0 Y1 Y2 Y3";
    const int nterms = 1 + static_cast<int>(rng() % 3);
    int bits[5] = {8, 9, 10, 11, 12};
    std::shuffle(bits, bits + 5, rng);
    for (int k = 0; k < nterms; ++k) text += " post" + std::to_string(bits[k]) + "=" + terms[rng() % 8];
    Pattern p;
    ASSERT_TRUE(parse_pattern_text(text, &p).ok()) << text;
    TextureDesc d = desc_of("R8_UNORM", 1 + rng() % 120, 1 + rng() % 90);
    const uint64_t bw = (d.width + 15) / 16, bh = (d.height + 15) / 16;
    LayoutSpec spec;
    spec.kind = LayoutKind::Pattern;
    spec.pattern = p;
    spec.row_pitch_B = 256 * (bw + rng() % 6);  // a 16x16-byte block is 256 bytes
    Layout L;
    const Status st = make_layout(d, spec, &L);
    if (!st.ok() && st.message().find("singular") != std::string::npos) continue;  // postamble inside the block
    AddressParams a;
    a.row_pitch = spec.row_pitch_B;
    std::vector<uint64_t> offs;
    for (uint64_t by = 0; by < bh; ++by)
      for (uint64_t bx = 0; bx < bw; ++bx)
        for (uint64_t y = by * 16; y < by * 16 + 16; ++y)
          for (uint64_t x = bx * 16; x < bx * 16 + 16; ++x) offs.push_back(reference_offset(p, x, y, 0, 0, a));
    std::sort(offs.begin(), offs.end());
    const bool distinct = std::adjacent_find(offs.begin(), offs.end()) == offs.end();
    SCOPED_TRACE(text + " on " + std::to_string(d.width) + "x" + std::to_string(d.height) + ", row pitch " +
                 std::to_string(a.row_pitch));
    EXPECT_EQ(st.ok(), distinct) << st.message();
    if (st.ok()) {
      EXPECT_LT(offs.back(), L.sub(0).size);
      ++accepted;
    } else {
      EXPECT_NE(st.message().find("land on the same memory"), std::string::npos) << st.message();
      ++refused;
    }
  }
  EXPECT_GT(accepted, 50);
  EXPECT_GT(refused, 10);
}

// fuzz_copy_subresource (fuzz/regressions/fuzz_copy_subresource/slow-array-slices):
// a row-major R8G8B8A8 10x1638656 texture with 10 mips and 92255 slices
// (922550 subresources, under the 2^20 limit): each mip's geometry is
// computed once (slice 0) and copied to the others, not computed for every
// slice (seconds under the fuzzers' sanitizers).
TEST(Reliability, ArraySlicesShareOneGeometryComputation) {
  LayoutSpec spec;
  spec.kind = LayoutKind::RowMajor;
  TextureDesc d = desc_of("R8G8B8A8_UNORM", 10, 1638656);
  d.array_size = 92255;
  d.mip_levels = 10;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  EXPECT_EQ(detail::last_layout_work().placed, 10u);  // not 922550
  ASSERT_EQ(L.subresource_count(), 922550u);
  Layout one;
  TextureDesc d1 = d;
  d1.array_size = 1;
  ASSERT_TRUE(make_layout(d1, spec, &one).ok());
  uint64_t prev_end = 0;
  for (uint32_t i = 0; i < L.subresource_count(); i += (i < 40 ? 1 : 9973)) {
    const SubresourceLayout& s = L.sub(i);
    SCOPED_TRACE(i);
    EXPECT_EQ(s.index, i);
    EXPECT_EQ(s.mip, i % 10);
    EXPECT_EQ(s.array_slice, i / 10);
    const SubresourceLayout& r = one.sub(i % 10);
    EXPECT_EQ(s.size, r.size);
    EXPECT_EQ(s.row_pitch, r.row_pitch);
    EXPECT_EQ(s.width, r.width);
    EXPECT_EQ(s.height, r.height);
    EXPECT_GE(s.offset, prev_end);
    prev_end = s.offset + s.size;
  }
  // The last subresource of a mip sits at its index through the addressing.
  EXPECT_EQ(L.sub(922549).array_slice, 92254u);
  EXPECT_EQ(L.sub(922549).offset + L.sub(922549).size, L.size());
}

// The postamble walk's work is counted, not timed: one geometry of 2^24
// blocks walks exactly 2^24 blocks, whatever the number of slices; the walk
// itself reduces each block with byte tables over a reduced basis
// (HighPostambleWalkMatchesBruteForce checks it against every byte).
TEST(Reliability, PostambleWalkCountsItsBlocks) {
  Pattern p;
  ASSERT_TRUE(parse_pattern_text("X0 X1 X2 X3 Y0 Y1 Y2 Y3 post8=X20 post9=Y13^X9", &p).ok());
  LayoutSpec spec;
  spec.kind = LayoutKind::Pattern;
  spec.pattern = p;
  TextureDesc d = desc_of("R8_UNORM", 65536, 65536);
  d.array_size = 64;
  Layout L;
  ASSERT_TRUE(make_layout(d, spec, &L).ok());
  EXPECT_EQ(detail::last_layout_work().walked_blocks, uint64_t{1} << 24);
  EXPECT_EQ(detail::last_layout_work().placed, 1u);
  EXPECT_GE(L.sub(0).size, uint64_t{1} << 32);
}

// A clear of every subresource encodes its value once per plane, not once per
// subresource (a BC7 13x37 array of 64 slices and 6 mips: one encode, not
// 384). The result equals the same
// clear made one subresource at a time (each such clear encodes on its own).
TEST(Reliability, ClearOfAllSubresourcesEncodesOncePerPlane) {
  struct Case {
    const char* format;
    uint32_t w, h, mips, slices, planes;
  };
  for (const Case& k : {Case{"BC7_UNORM", 13, 37, 6, 64, 1}, Case{"NV12", 16, 8, 1, 5, 2}}) {
    SCOPED_TRACE(k.format);
    TextureDesc d = desc_of(k.format, k.w, k.h);
    d.mip_levels = k.mips;
    d.array_size = k.slices;
    LayoutSpec spec;
    spec.kind = LayoutKind::RowMajor;
    Layout L;
    ASSERT_TRUE(make_layout(d, spec, &L).ok());
    ASSERT_EQ(L.subresource_count(), k.mips * k.slices * k.planes);
    ClearDesc all;
    all.subresource = kAllSubresources;
    all.whole = true;
    all.value = ClearValue::from_floats(0.25f, 0.5f, 0.75f, 1.0f);
    std::vector<uint8_t> at_once(L.size(), 0x5c), one_by_one(L.size(), 0x5c);
    ASSERT_TRUE(clear_subresources(L, at_once.data(), at_once.size(), &all, 1).ok());
    EXPECT_EQ(detail::last_clear_encodes(), k.planes);  // not one per subresource
    for (uint32_t s = 0; s < L.subresource_count(); ++s) {
      ClearDesc one = all;
      one.subresource = s;
      ASSERT_TRUE(clear_subresources(L, one_by_one.data(), one_by_one.size(), &one, 1).ok());
      EXPECT_EQ(detail::last_clear_encodes(), 1u);
    }
    EXPECT_TRUE(at_once == one_by_one);
    EXPECT_NE(at_once, std::vector<uint8_t>(L.size(), 0x5c));
  }
}
