// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Online softmax over a warpgroup's wgmma accumulators (FlashAttention's running maximum and sum),
// shared by the attention kernels: S, a 64 x BlockN block of scores, is folded in block by block;
// O, 64 x HeadDimV, is rescaled when the maximum moves and divided by the sum at the end. In exp2,
// with the softmax scale folded in (scale_log2 = scale * log2 e). The FP8 forward scales P by
// 2^PLog2Max (fp8_p_log2_max) so that it fills e4m3's range when it is quantized for O += P V; the
// row sums are of the same scaled values, so the scale cancels in O / sum and the LSE takes it out.
// CuTeDSL: the online softmax of its flash_attention examples (no library type).
#include <cute_cpp/arch/math.hpp>
#include <cute_cpp/arch/thread.hpp>
#include <cute_cpp/config.hpp>

#include <cmath>

namespace cute_cpp {

/// The row half (0: row r, 1: row r + 8 of the thread's warp) of value jj of a thread's wgmma
/// accumulator: (jj / 2) % 2 (AtomLayoutC's order).
constexpr CUTE_CPP_HD int accumulator_row_half(int jj) { return (jj / 2) % 2; }

/// A warpgroup's softmax state for its 64 rows: per thread, two rows (r and r + 8 of its warp's
/// 16), their running maximum (of the raw scores) and partial sum (of this thread's columns; the
/// quad's four threads are summed at the end). P in [0, 2^PLog2Max].
template <int BlockN, int HeadDimV, int PLog2Max = 0>
struct OnlineSoftmax {
  float row_max[2] = {-INFINITY, -INFINITY};
  float row_sum[2] = {0.0f, 0.0f};

  /// S's values of one row half h: value jj lies in row half accumulator_row_half(jj).
  static constexpr CUTE_CPP_HD int half(int jj) { return accumulator_row_half(jj); }

#if defined(__CUDACC__)
  /// Folds the block's scores `s` in: s becomes P = 2^PLog2Max 2^(scale_log2 (s - max)); returns
  /// how much each row half's O must be scaled by (rescale), the maximum having moved.
  template <class FragmentS>
  __device__ __forceinline__ float2 scores(FragmentS& s, float scale_log2) {
    constexpr int ns = BlockN / 2;
    float block_max[2] = {row_max[0], row_max[1]};
#pragma unroll
    for (int jj = 0; jj < ns; ++jj) block_max[half(jj)] = fmaxf(block_max[half(jj)], s(jj, 0));
    float offset[2], correction[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      block_max[h] = fmaxf(block_max[h], arch::shuffle_sync_bfly(block_max[h], 1));
      block_max[h] = fmaxf(block_max[h], arch::shuffle_sync_bfly(block_max[h], 2));
      // A row that sees no key yet keeps -inf: its top 0 makes every P 0, not NaN.
      float const top = block_max[h] == -INFINITY ? 0.0f : block_max[h] * scale_log2;
      offset[h] = top - float(PLog2Max);
      if constexpr (PLog2Max != 0) {
        // FP8: a zero descale (an all-zero tensor's amax / 448) makes scale_log2 0, and the first
        // block's -inf · 0 NaN; its correction is 0 (O and the sum hold nothing yet).
        correction[h] = row_max[h] == -INFINITY ? 0.0f : arch::exp2(row_max[h] * scale_log2 - top);
      } else {
        correction[h] = arch::exp2(row_max[h] * scale_log2 - top);
      }
      row_max[h] = block_max[h];
      row_sum[h] *= correction[h];
    }
#pragma unroll
    for (int jj = 0; jj < ns; ++jj) {
      float const e = arch::exp2(fmaf(s(jj, 0), scale_log2, -offset[half(jj)]));
      s(jj, 0) = e;
      row_sum[half(jj)] += e;
    }
    return {correction[0], correction[1]};
  }

  /// O *= the correction of its row half.
  template <class FragmentO>
  static __device__ __forceinline__ void rescale(FragmentO& o, float2 correction) {
#pragma unroll
    for (int jj = 0; jj < HeadDimV / 2; ++jj) o(jj, 0) *= half(jj) == 0 ? correction.x : correction.y;
  }

  /// After the last block: O *= out_scale / row sum (the FP8 forward's out_scale: V's descale);
  /// returns each row half's LSE (natural log, of the unscaled P; -inf for a row that saw no key,
  /// whose O is 0).
  template <class FragmentO>
  __device__ __forceinline__ void finish(FragmentO& o, float scale_log2, float out_scale, float (&lse)[2]) {
    constexpr int no = HeadDimV / 2;
    float factor[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      float sum = row_sum[h];
      sum += arch::shuffle_sync_bfly(sum, 1);
      sum += arch::shuffle_sync_bfly(sum, 2);
      factor[h] = sum > 0.0f ? out_scale / sum : 0.0f;
      lse[h] = sum > 0.0f ? (row_max[h] * scale_log2 + std::log2(sum) - float(PLog2Max)) * float(M_LN2) : -INFINITY;
    }
#pragma unroll
    for (int jj = 0; jj < no; ++jj) o(jj, 0) *= factor[half(jj)];
  }
  /// finish with O /= row sum.
  template <class FragmentO>
  __device__ __forceinline__ void finish(FragmentO& o, float scale_log2, float (&lse)[2]) {
    finish(o, scale_log2, 1.0f, lse);
  }
#endif
};

}  // namespace cute_cpp
