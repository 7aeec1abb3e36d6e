// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Copy atoms: what one thread moves in one instruction. CuTeDSL: cute.nvgpu.CopyUniversalOp
// (plain loads/stores of 1..16 bytes), cute.nvgpu.cpasync.CopyG2SOp (cp.async, 4/8/16 bytes,
// zero-filled when predicated off), cute.nvgpu.warp.LdMatrix8x8x16bOp / StMatrix8x8x16bOp
// (a warp moves 1, 2 or 4 8x8 matrices of 16-bit values between shared memory and registers).
// CopyAtom<Op, T> pairs an operation with the element type, as cute.make_copy_atom(op, dtype).
#include <cute_cpp/arch/copy.hpp>    // arch::cp_async_commit_group, cp_async_wait_group
#include <cute_cpp/config.hpp>       // CUTE_CPP_HD
#include <cute_cpp/diag/copy.hpp>    // copy_atom_element_width
#include <cute_cpp/tensor/register_tile.hpp>  // detail::VectorPack
#include <ctm/common/cp_async.hpp>   // cp_async_ca_shared_global, cp_async_cg_shared_global
#include <ctm/common/ldmatrix.hpp>   // ldmatrix_x1/x2/x4(_trans)
#include <ctm/common/stmatrix.hpp>   // stmatrix_x1/x2/x4(_trans)

#include <cstdint>

namespace cute_cpp {

/// Plain loads and stores of Bytes (1, 2, 4, 8 or 16) per access.
template <int Bytes = 16>
struct CopyUniversalOp {
  static_assert(Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8 || Bytes == 16,
                "cute-cpp [copy.atom.bytes]: CopyUniversalOp moves 1, 2, 4, 8 or 16 bytes");
  static constexpr int bytes = Bytes;
  static constexpr bool is_cp_async = false;
  template <class T>
  CUTE_CPP_HD static void copy(T const* src, T* dst) {
    using Pack = detail::VectorPack<T, Bytes / int(sizeof(T))>;
    *reinterpret_cast<Pack*>(dst) = *reinterpret_cast<Pack const*>(src);
  }
  /// Predicated off: the destination is zero-filled (as cp.async does), the source unread.
  template <class T>
  CUTE_CPP_HD static void copy_zfill(T const* src, T* dst, bool pred) {
    using Pack = detail::VectorPack<T, Bytes / int(sizeof(T))>;
    if (pred) *reinterpret_cast<Pack*>(dst) = *reinterpret_cast<Pack const*>(src);
    else *reinterpret_cast<Pack*>(dst) = Pack{};
  }
};

/// cp.async global -> shared of Bytes (4, 8, 16); 16 bytes bypass L1 (.cg). Completes at
/// cp_async_wait<N>() after cp_async_commit_group().
template <int Bytes = 16>
struct CopyG2SOp {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cute-cpp [copy.atom.bytes]: CopyG2SOp moves 4, 8 or 16 bytes");
  static constexpr int bytes = Bytes;
  static constexpr bool is_cp_async = true;
#if defined(__CUDACC__)
  template <class T>
  __device__ __forceinline__ static void copy(T const* src, T* dst) {
    if constexpr (Bytes == 16) ctm::cp_async_cg_shared_global<16>(dst, src);
    else ctm::cp_async_ca_shared_global<Bytes>(dst, src);
  }
  /// Predicated off: the destination is zero-filled and the source is not read.
  template <class T>
  __device__ __forceinline__ static void copy_zfill(T const* src, T* dst, bool pred) {
    if constexpr (Bytes == 16) ctm::cp_async_cg_shared_global<16>(dst, src, pred ? 16u : 0u);
    else ctm::cp_async_ca_shared_global<Bytes>(dst, src, pred ? std::uint32_t(Bytes) : 0u);
  }
#endif
};

#if defined(__CUDACC__)
/// cute.arch.cp_async_commit_group / cp_async_wait_group, also by their copy-atom names.
using arch::cp_async_commit_group;
using arch::cp_async_wait_group;
#endif

/// ldmatrix.sync.aligned.m8n8.xNum(.trans).shared.b16: a warp loads Num 8x8 matrices of 16-bit
/// values; lane l gives the row address of row l % 8 of matrix l / 8, and receives one 32-bit
/// register per matrix (two values of row l / 4, columns 2 * (l % 4) and + 1; transposed with .trans).
template <int Num, bool Transpose = false>
struct LdMatrix8x8x16bOp {
  static_assert(Num == 1 || Num == 2 || Num == 4, "cute-cpp [copy.atom.ldmatrix-num]: ldmatrix loads 1, 2 or 4 matrices");
  static constexpr int num_matrices = Num;
#if defined(__CUDACC__)
  __device__ __forceinline__ static void copy(void const* row_addr, std::uint32_t (&d)[Num]) {
    if constexpr (Num == 1) {
      if constexpr (Transpose) ctm::ldmatrix_x1_trans(d[0], row_addr); else ctm::ldmatrix_x1(d[0], row_addr);
    } else if constexpr (Num == 2) {
      if constexpr (Transpose) ctm::ldmatrix_x2_trans(d[0], d[1], row_addr); else ctm::ldmatrix_x2(d[0], d[1], row_addr);
    } else {
      if constexpr (Transpose) ctm::ldmatrix_x4_trans(d[0], d[1], d[2], d[3], row_addr);
      else ctm::ldmatrix_x4(d[0], d[1], d[2], d[3], row_addr);
    }
  }
#endif
};

/// stmatrix.sync.aligned.m8n8.xNum(.trans).shared.b16: the converse of LdMatrix8x8x16bOp.
template <int Num, bool Transpose = false>
struct StMatrix8x8x16bOp {
  static_assert(Num == 1 || Num == 2 || Num == 4, "cute-cpp [copy.atom.ldmatrix-num]: stmatrix stores 1, 2 or 4 matrices");
  static constexpr int num_matrices = Num;
#if defined(__CUDACC__)
  __device__ __forceinline__ static void copy(std::uint32_t const (&s)[Num], void* row_addr) {
    if constexpr (Num == 1) {
      if constexpr (Transpose) ctm::stmatrix_x1_trans(row_addr, s[0]); else ctm::stmatrix_x1(row_addr, s[0]);
    } else if constexpr (Num == 2) {
      if constexpr (Transpose) ctm::stmatrix_x2_trans(row_addr, s[0], s[1]); else ctm::stmatrix_x2(row_addr, s[0], s[1]);
    } else {
      if constexpr (Transpose) ctm::stmatrix_x4_trans(row_addr, s[0], s[1], s[2], s[3]);
      else ctm::stmatrix_x4(row_addr, s[0], s[1], s[2], s[3]);
    }
  }
#endif
};

/// A copy operation and the element type it moves (cute.make_copy_atom(op, dtype)).
template <class Op, class T>
struct CopyAtom {
  static_assert(diag::copy_atom_element_width<Op::bytes, int(sizeof(T))>::ok);
  using op_type = Op;
  using value_type = T;
  static constexpr int elems = Op::bytes / int(sizeof(T));  // values per access
};

}  // namespace cute_cpp
