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

/// Carves a block of shared memory front to back; each piece starts at its alignment. The same
/// calls on an SmemAllocator built with no base (the host) compute the bytes to launch with.
///   SmemAllocator smem(dynamic_smem);              // device
///   float* red = smem.allocate_array<float, 32>();
///   auto sA = smem.allocate_tensor<bf16>(RowMajor<128, 72>{});  // (128,72), 16-byte aligned
class SmemAllocator {
 public:
  constexpr SmemAllocator() = default;
  CUTE_CPP_HD explicit SmemAllocator(void* base) : base_(static_cast<unsigned char*>(base)) {}

  /// allocate(bytes, align): the next `bytes` at an `align`-byte boundary.
  template <int Align = 16>
  CUTE_CPP_HD constexpr void* allocate(std::size_t bytes) {
    static_assert(diag::smem_alignment_power_of_two<Align>::ok);
    used_ = (used_ + Align - 1) / Align * Align;
    void* p = base_ == nullptr ? nullptr : base_ + used_;
    used_ += bytes;
    return p;
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
  /// allocate_tensor<T>(layout): cosize(layout) values, viewed through the layout.
  template <class T, int Align = 128, class L>
  CUTE_CPP_HD constexpr auto allocate_tensor(L const& layout) {
    T* p = allocate_array<T, Align>(std::size_t(cosize(layout)));
    return make_tensor(p, layout);
  }
  /// The bytes handed out so far, padding included: the dynamic shared memory to launch with.
  [[nodiscard]] CUTE_CPP_HD constexpr std::size_t size_in_bytes() const noexcept { return used_; }

 private:
  unsigned char* base_ = nullptr;
  std::size_t used_ = 0;
};

/// A typed static shared array: `__shared__ SmemArray<float, 32> red;` then red[i].
template <class T, std::size_t N, std::size_t Align = alignof(T) < 16 ? 16 : alignof(T)>
struct alignas(Align) SmemArray {
  T data[N];
  [[nodiscard]] CUTE_CPP_HD constexpr T& operator[](std::size_t i) { return data[i]; }
  [[nodiscard]] CUTE_CPP_HD constexpr T const& operator[](std::size_t i) const { return data[i]; }
  [[nodiscard]] static constexpr std::size_t size() noexcept { return N; }
};

}  // namespace cute_cpp
