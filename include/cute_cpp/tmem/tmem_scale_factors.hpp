// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The scale factors of a block-scaled tcgen05.mma operand: how they are staged in shared memory,
// copied to tensor memory (tcgen05.cp 32x128b.warpx4, one thread) and addressed per instruction
// (the scale-factor id in bits 30-31 of the address selects the byte, or half-word, of each
// 32-bit column). CuTeDSL: blockscaled_utils.make_smem_layout_sfa / sfb, tcgen05.Cp4x32x128bOp
// with tcgen05.make_s2t_copy, and the tmem scale-factor pointers the block-scaled MMA takes.
#include <cute_cpp/config.hpp>        // CUTE_CPP_HD
#include <cute_cpp/diag/umma.hpp>     // umma.sf-copy.cta-group
#include <ctm/sm100/tcgen05_desc.hpp>  // tcgen05_smem_desc

#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/sm100/tcgen05_cp.hpp>  // tcgen05_cp
#endif

namespace cute_cpp::sm100 {

/// The scale factors of one operand tile: Rows rows (M or N of the CTA) by KValues values of K,
/// one factor every VecSize values, SfPerInstr factors per row read by each instruction.
/// Shared memory holds them in blocks of 128 rows x 4 factors (512 bytes, the 32x128b source of a
/// tcgen05.cp .warpx4): factor f of row r of a block at byte 16 (r % 32) + 4 (r / 32) + f. Blocks
/// run along the rows first (row_blocks of them), then along K. Block b is copied to columns
/// 4b .. 4b + 3 of every lane quarter, so lane l's column 4b + q holds the factors of row
/// 32 q + l % 32, one per byte.
template <int Rows, int KValues, int VecSize, int SfPerInstr>
struct UmmaScaleFactorLayout {
  static constexpr int row_blocks = (Rows + 127) / 128;
  static constexpr int factors_per_row = KValues / VecSize;
  static constexpr int k_blocks = (factors_per_row + 3) / 4;
  static constexpr int blocks = row_blocks * k_blocks;
  static constexpr int bytes = blocks * 512;   ///< shared memory the tile's factors take
  static constexpr int columns = blocks * 4;   ///< tensor-memory columns they take

  /// Byte offset in shared memory of factor `f` (along K) of row `row`.
  static CUTE_CPP_HD constexpr int smem_offset(int row, int f) {
    return ((f / 4) * row_blocks + row / 128) * 512 + (row % 32) * 16 + ((row / 32) % 4) * 4 + f % 4;
  }
  /// The scale-factor address instruction `kk` (a K slice of the tile) reads, from the factors'
  /// tensor-memory address `tmem`: its first factor's block column, the byte in bits 30-31.
  static CUTE_CPP_HD constexpr std::uint32_t tmem_for_slice(std::uint32_t tmem, int kk) {
    int const f = kk * SfPerInstr;
    return tmem + std::uint32_t(4 * (f / 4) * row_blocks) + (std::uint32_t(f % 4) << 30);
  }
  /// The tcgen05.cp source descriptor of block b at shared address `smem`: 32 rows of 16 bytes, no
  /// swizzle (8-row core matrices 128 bytes apart).
  static CUTE_CPP_HD constexpr std::uint64_t block_descriptor(std::uint32_t smem, int b) {
    return ctm::tcgen05_smem_desc({.start_address = smem + std::uint32_t(512 * b), .lbo_bytes = 128, .sbo_bytes = 128});
  }

#if defined(__CUDACC__)
  /// Copies the tile's factors from shared memory (`smem`, the address of block 0) to tensor
  /// memory at `tmem`; one thread issues it, and tcgen05.commit (with the MMA's) tracks it.
  template <int CtaGroup = 1>
  static __device__ __forceinline__ void copy(std::uint32_t smem, std::uint32_t tmem) {
    static_assert(diag::umma_sf_copy_cta_group<CtaGroup>::ok);
#  pragma unroll
    for (int b = 0; b < blocks; ++b)
      ctm::tcgen05_cp<ctm::Tcgen05CpShape::s32x128b_warpx4, CtaGroup>(tmem + std::uint32_t(4 * b),
                                                                      block_descriptor(smem, b));
  }
#endif
};

}  // namespace cute_cpp::sm100
