// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Shared memory: SmemAllocator carves dynamic shared memory into aligned, typed pieces (a
// pointer or a TensorMut over a layout), and SmemPlan sizes the launch for the same sequence on
// the host. SmemArray<T, N> is a typed static shared array. CuTeDSL: cutlass.utils.SmemAllocator
// (allocate, allocate_array, allocate_tensor).
#include <cute_cpp/config.hpp>          // CUTE_CPP_HD
#include <cute_cpp/diag/tensor.hpp>     // smem_alignment_power_of_two
#include <cute_cpp/tensor/tensor.hpp>   // TensorMut, make_tensor

#include <cstddef>
#include <cstdint>

namespace cute_cpp {

/// Carves a block of shared memory front to back; each piece starts at an address that is a
/// multiple of its alignment. The same calls on an SmemAllocator built with no base (the host)
/// compute the bytes to launch with: the dynamic block is only known to start on a 16-byte
/// boundary, so the count keeps room to move the first piece up to the largest alignment asked.
///   SmemAllocator smem(dynamic_smem);              // device
///   float* red = smem.allocate_array<float, 32>();
///   auto sA = smem.allocate_tensor<bf16>(RowMajor<128, 72>{});  // (128,72), 128-byte aligned
///   auto& s = *smem.allocate_object<SharedStorage>();  // at alignof(SharedStorage)
class SmemAllocator {
 public:
  constexpr SmemAllocator() = default;
  CUTE_CPP_HD explicit SmemAllocator(void* base) : base_(static_cast<unsigned char*>(base)) {}

  /// allocate(bytes, align): the next `bytes` at an `align`-byte boundary.
  template <int Align = 16>
  CUTE_CPP_HD constexpr void* allocate(std::size_t bytes) {
    static_assert(diag::smem_alignment_power_of_two<Align>::ok);
    if (Align > max_align_) max_align_ = Align;
    if (counting()) {
      used_ = (used_ + Align - 1) / Align * Align;
      used_ += bytes;
      return nullptr;
    }
    // NOTE: aligned as an address, not as an offset from base_: a greedy walk of absolute
    // boundaries never ends past the host's count (offsets aligned, plus one shift of the start).
    auto const at = (reinterpret_cast<std::uintptr_t>(base_) + used_ + Align - 1) & ~std::uintptr_t(Align - 1);
    used_ = std::size_t(at - reinterpret_cast<std::uintptr_t>(base_)) + bytes;
    return reinterpret_cast<void*>(at);
  }
  /// allocate_array<T, N>(): N values of T, aligned to max(alignof(T), Align).
  template <class T, std::size_t N, int Align = 16>
  CUTE_CPP_HD constexpr T* allocate_array() {
    return static_cast<T*>(allocate<(Align > int(alignof(T)) ? Align : int(alignof(T)))>(N * sizeof(T)));
  }
  /// allocate_array<T>(n): a run-time count.
  template <class T, int Align = 16>
  CUTE_CPP_HD constexpr T* allocate_array(std::size_t n) {
    return static_cast<T*>(allocate<(Align > int(alignof(T)) ? Align : int(alignof(T)))>(n * sizeof(T)));
  }
  /// allocate_object<T>(): storage for one T (a kernel's shared-storage struct) at alignof(T).
  template <class T>
  CUTE_CPP_HD constexpr T* allocate_object() {
    return static_cast<T*>(allocate<(int(alignof(T)) > 16 ? int(alignof(T)) : 16)>(sizeof(T)));
  }
  /// allocate_tensor<T>(layout): cosize(layout) values, viewed through the layout.
  template <class T, int Align = 128, class L>
  CUTE_CPP_HD constexpr auto allocate_tensor(L const& layout) {
    T* p = allocate_array<T, Align>(std::size_t(cosize(layout)));
    return make_tensor(p, layout);
  }
  /// The bytes handed out so far, padding included; on the host, with the room to align the
  /// block's start: the dynamic shared memory to launch with.
  [[nodiscard]] CUTE_CPP_HD constexpr std::size_t size_in_bytes() const noexcept {
    return used_ + (counting() && max_align_ > 16 ? std::size_t(max_align_ - 16) : 0);
  }

 private:
  /// Whether this allocator only counts bytes (it has no block). NOTE: in device code that runs,
  /// an allocator always carves a block: telling the compiler so spares every piece a test of the
  /// base against null (a 64-bit compare and select the kernel's addresses would then go through).
  [[nodiscard]] CUTE_CPP_HD constexpr bool counting() const noexcept {
#if defined(__CUDA_ARCH__)
    if (!__builtin_is_constant_evaluated()) return false;
#endif
    return base_ == nullptr;
  }

  unsigned char* base_ = nullptr;
  std::size_t used_ = 0;
  int max_align_ = 16;
};

/// The dynamic shared memory to launch a kernel with whose block holds one of each Objects,
/// carved in order by SmemAllocator::allocate_object.
template <class... Objects>
[[nodiscard]] constexpr std::size_t smem_bytes_for() {
  SmemAllocator plan;
  (plan.allocate<(int(alignof(Objects)) > 16 ? int(alignof(Objects)) : 16)>(sizeof(Objects)), ...);
  return plan.size_in_bytes();
}

/// A typed static shared array: `__shared__ SmemArray<float, 32> red;` then red[i].
template <class T, std::size_t N, std::size_t Align = alignof(T) < 16 ? 16 : alignof(T)>
struct alignas(Align) SmemArray {
  T data[N];
  [[nodiscard]] CUTE_CPP_HD constexpr T& operator[](std::size_t i) { return data[i]; }
  [[nodiscard]] CUTE_CPP_HD constexpr T const& operator[](std::size_t i) const { return data[i]; }
  [[nodiscard]] static constexpr std::size_t size() noexcept { return N; }
};

}  // namespace cute_cpp
