// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates of the Hopper GEMM's promoting plans (gemm.block-scaled.*, gemm.two-level): the
// tile's columns against B's 128-column scale blocks, the registers the promotion holds, the
// main-loop options, two-level accumulation's operands.
// The values under test are the template arguments, so the compiler prints them on the first
// context line.

namespace cute_cpp::diag {

/// gcd(BlockN, 128) for a positive BlockN.
constexpr int gemm_block_scaled_gcd128(int block_n) {
  int a = block_n, b = 128;
  while (b != 0) {
    int const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/// Rule gemm.block-scaled.tile-n: a tile's columns meet at most two of B's 128-column scale blocks.
/// Tile t starts at column t BlockN, whose offset in its scale block is a multiple of gcd(BlockN,
/// 128) up to 128 - gcd; so the columns stay within two blocks iff BlockN <= 128 + gcd(BlockN, 128)
/// (112, 128, 144, 160, 192 and 256 pass; 176, 208 and 224 do not). A multiple of 8 (wgmma's N
/// rule), so the boundary between the two blocks falls between 8-column groups of the accumulator.
template <int BlockN>
struct gemm_block_scaled_tile_n {
  static_assert(BlockN >= 8 && BlockN % 8 == 0 && BlockN <= 128 + gemm_block_scaled_gcd128(BlockN),
                "cute-cpp [gemm.block-scaled.tile-n]: a block-scaled tile's N is a multiple of 8 whose tiles meet at "
                "most two of B's 128-column scale blocks: N <= 128 + gcd(N, 128) (e.g. 112, 128, 144, 160, 192)");
  static constexpr bool ok = true;
};

/// Rule gemm.block-scaled.registers (block-scaled and two-level plans): a consumer thread holds the
/// promoted accumulator and
/// ProductSets K-block products of BlockN / 2 floats per 64-row atom (BlockM / 128 atoms a
/// warpgroup); at most 192 floats leave room for the scales and addresses in 232-240 registers
/// (two sets: the overlapped promotion).
template <int BlockN, int BlockM, int ProductSets>
struct gemm_block_scaled_registers {
  static_assert((1 + ProductSets) * (BlockN / 2) * (BlockM / 128) <= 192,
                "cute-cpp [gemm.block-scaled.registers]: the promoted accumulator and the K-block products "
                "((1 + ProductSets) x BlockN / 2 floats per 64-row atom) exceed 192 registers a consumer thread: "
                "a narrower tile, or overlap_promotion off");
  static constexpr bool ok = true;
};

/// Rule gemm.block-scaled.options: overlap_promotion is an option of a main loop that promotes
/// (block-scaled, or two-level accumulation); staged_scales one of a block-scaled plan, whose
/// scale loader walks dense tiles only (not a grouped plan's groups).
template <bool BlockScaled, bool Overlap, bool Staged, bool Grouped, bool TwoLevel = false>
struct gemm_block_scaled_options {
  static_assert((BlockScaled || TwoLevel || !Overlap) && (BlockScaled || !Staged) && !(Staged && Grouped),
                "cute-cpp [gemm.block-scaled.options]: overlap_promotion needs a promoting main loop (block_scaled or "
                "two_level_accumulation), staged_scales needs block_scaled = true and a dense (not grouped) plan");
  static constexpr bool ok = true;
};

/// Rule gemm.two-level: two-level accumulation promotes each K block's wgmma products into the fp32
/// accumulator on the CUDA cores. It is FP8's (wgmma's 8-bit forms accumulate at reduced precision;
/// 16-bit ones in fp32), in K blocks of 128 (four QGMMA k-steps), cooperative like the block-scaled
/// main loop; a block-scaled plan promotes already.
template <bool TwoLevel, int BytesA, int BytesB, int BlockK, bool Cooperative, bool BlockScaled>
struct gemm_two_level {
  static_assert(!TwoLevel || (BytesA == 1 && BytesB == 1 && BlockK == 128 && Cooperative && !BlockScaled),
                "cute-cpp [gemm.two-level]: two_level_accumulation takes FP8 operands in K blocks of 128, a "
                "cooperative schedule, and no block_scaled (which promotes each K block already)");
  static constexpr bool ok = true;
};

/// The tile rules of a promoting plan: a block-scaled one's columns against B's scale blocks and
/// its registers; a two-level one's registers (none for another plan: only these instantiate them).
template <bool BlockScaled, int BlockN, int BlockM, int ProductSets, bool TwoLevel = false>
constexpr bool gemm_block_scaled_tile() {
  if constexpr (BlockScaled)
    return gemm_block_scaled_tile_n<BlockN>::ok && gemm_block_scaled_registers<BlockN, BlockM, ProductSets>::ok;
  else if constexpr (TwoLevel) return gemm_block_scaled_registers<BlockN, BlockM, ProductSets>::ok;
  else return true;
}

}  // namespace cute_cpp::diag
