// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// sm90::WgmmaTiledMmaRSFp8: a warpgroup's tiled MMA with an e4m3 A from registers (wgmma RS,
// m64nNk32, QGMMA) and an e4m3 B read K-major from shared memory (8-bit wgmma has no transpose).
// Its make_a_fragment turns a float accumulator into A in place, the way attention's O += P V
// needs, without moving bytes between threads: the accumulator's columns are taken in the order
// it holds them (fp8_p_key), so B's K rows must hold their keys in that same order.
// CuTeDSL: warpgroup.MmaF8Op with OperandSource.RMEM.
#include <cute_cpp/attention/fp8_scales.hpp>  // fp8_p_key: the key order of A's columns
#include <cute_cpp/mma/sm90_wgmma.hpp>

#include <cstdint>

namespace cute_cpp::sm90 {

/// acc (AtomsM 64-row atoms by N) += A · B with A (64 AtomsM x K) e4m3 in registers and B (K x N)
/// an e4m3 tile laid out by BSmem, K-major (each of B's N rows holds K contiguous bytes).
template <class BSmem, int AtomsM, int N>
struct WgmmaTiledMmaRSFp8 {
#if defined(__CUDACC__)
  using TB = __nv_fp8_e4m3;
#else
  using TB = std::uint8_t;
#endif
  static_assert(diag::wgmma_tile_shape<AtomsM, N>::ok);
  static_assert(diag::wgmma_operand_role<1, detail::OperandRole<BSmem>::role>::ok);
  using OpB = detail::WgmmaOperand<TB, typename detail::OperandRole<BSmem>::layout>;
  static_assert(diag::wgmma_k_major_for_8bit<true, OpB::k_major, 1>::ok);
  static_assert(diag::wgmma_operand_rows<OpB::mn_extent, N>::ok);
  static_assert(diag::wgmma_tile_k<OpB::k_extent, 32>::ok);

  static constexpr int atoms_m = AtomsM;
  static constexpr int n = N;
  static constexpr int k_slices = OpB::k_extent / 32;
  using Accumulator = WgmmaAccumulator<AtomsM, N>;
  using FragmentC = typename Accumulator::FragmentC;
  /// A: per atom and k-slice, four registers of four e4m3 bytes (the instruction's a0..a3).
  using FragmentA = RmemTensor<std::uint32_t, Layout<Shape<C<4>, C<k_slices>, C<AtomsM>>>>;
  /// The accumulator A is made from: K = 32 k_slices columns.
  using FragmentK = typename WgmmaAccumulator<AtomsM, 32 * k_slices>::FragmentC;

  static CUTE_CPP_HD constexpr WgmmaThrMma<AtomsM, N> get_slice(int thread_in_warpgroup) {
    return Accumulator::get_slice(thread_in_warpgroup);
  }

#if defined(__CUDACC__)
  /// acc += A · B over the tile's K (acc = the product when `accumulate` is false). The caller
  /// fences (warpgroup_arrive), commits and waits.
  static __device__ __forceinline__ void gemm(FragmentC& acc, FragmentA const& a, TB const* b_tile,
                                              bool accumulate = true) {
    auto const b_start = std::uint32_t(ctm::wgmma_desc_encode_bytes(ctm::cvta_to_shared_u32(b_tile)));
#pragma unroll
    for (int kk = 0; kk < k_slices; ++kk) {
      std::uint64_t const constant = OpB::descriptor(0, 0, kk);
      std::uint64_t const db =
          (constant & ~std::uint64_t{0xFFFFFFFFu}) | std::uint32_t(std::uint32_t(constant) + b_start);
#pragma unroll
      for (int atom = 0; atom < AtomsM; ++atom) {
        auto const& regs = *reinterpret_cast<std::uint32_t const(*)[4]>(&a.storage[4 * (kk + k_slices * atom)]);
        auto& part = *reinterpret_cast<float(*)[N / 2]>(&acc.storage[atom * (N / 2)]);
        ctm::wgmma_mma_async<N, ctm::DataType::f32, ctm::DataType::e4m3, ctm::DataType::e4m3, ctm::WgmmaMajor::k,
                             ctm::WgmmaMajor::k>(part, regs, db, kk > 0 || accumulate ? 1u : 0u);
      }
    }
  }
  static __device__ __forceinline__ void warpgroup_arrive(FragmentC& acc, FragmentA& a) {
    ctm::wgmma_fence_operand(a.storage);
    ctm::wgmma_fence_operand(acc.storage);
    ctm::wgmma_fence();
  }
  static __device__ __forceinline__ void commit_group() { ctm::wgmma_commit_group(); }
  template <int Pending>
  static __device__ __forceinline__ void wait_group(FragmentC& acc, FragmentA& a) {
    ctm::wgmma_wait_group<Pending>();
    ctm::wgmma_fence_operand(acc.storage);
    ctm::wgmma_fence_operand(a.storage);
  }

  /// A from an accumulator of K = 32 k_slices columns, each value rounded to e4m3 (nearest even,
  /// saturating at ±448): byte `byte` of register `reg` of k-slice kk is value 16 kk +
  /// fp8_a_value(reg, byte), so logical column k of A is key fp8_p_key(k) (tests/cpu checks both
  /// against the PTX ISA's fragments).
  static __device__ __forceinline__ FragmentA make_a_fragment(FragmentK const& c) {
    FragmentA a;
#pragma unroll
    for (int atom = 0; atom < AtomsM; ++atom) {
#pragma unroll
      for (int kk = 0; kk < k_slices; ++kk) {
#pragma unroll
        for (int reg = 0; reg < 4; ++reg) {
          auto const at = [&](int byte) { return c(16 * kk + fp8_a_value(reg, byte), atom); };
          std::uint32_t const lo = ctm::cvt_rn_satfinite_e4m3x2_f32(at(1), at(0));
          std::uint32_t const hi = ctm::cvt_rn_satfinite_e4m3x2_f32(at(3), at(2));
          a.storage[4 * (kk + k_slices * atom) + reg] = lo | (hi << 16);
        }
      }
    }
    return a;
  }
#endif
};

}  // namespace cute_cpp::sm90
