// swz CLI — pixel buffers that are not zero-filled before the decoder or the
// mip filter overwrites every byte of them.
#pragma once
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace swz::cli {

/// An allocator whose value-initialising construct() (what vector(n) and
/// resize(n) call) default-initialises instead: for uint8_t the bytes are
/// left as the allocation gave them, not zeroed. Every other construct()
/// forwards to `Base`.
template <class T, class Base = std::allocator<T>>
struct DefaultInitAllocator : Base {
  using Traits = std::allocator_traits<Base>;
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U, typename Traits::template rebind_alloc<U>>;
  };
  using Base::Base;
  DefaultInitAllocator() = default;
  template <class U, class B>
  DefaultInitAllocator(const DefaultInitAllocator<U, B>& o) noexcept : Base(static_cast<const B&>(o)) {}

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    Traits::construct(static_cast<Base&>(*this), p, std::forward<Args>(args)...);
  }
};

/// Bytes of decoded pixels: resize(n) does not zero them (the decoders and
/// the mip filter write every byte).
using PixelBuffer = std::vector<uint8_t, DefaultInitAllocator<uint8_t>>;

/// A PixelBuffer of `bytes` bytes, not zero-filled. Throws Error (not
/// bad_alloc) naming `what` when the size exceeds the memory available on
/// this machine or the allocation fails (file_io.cpp).
PixelBuffer allocate_pixels(uint64_t bytes, const std::string& what);

}  // namespace swz::cli
