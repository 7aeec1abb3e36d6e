// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The online softmax of the FP8 attention forward: OnlineSoftmax's running maximum and sum, with
// P scaled by 2^PLog2Max (fp8_p_log2_max) so it fills e4m3's range when it is quantized for
// O += P V. The row sums are of the same scaled values, so the scale cancels in O / sum; the LSE
// takes it out again. Everything else (the mask's -inf, O's rescale) is OnlineSoftmax's.
// CuTeDSL: no library type.
#include <cute_cpp/attention/online_softmax.hpp>

#include <cmath>

namespace cute_cpp {

template <int BlockN, int HeadDimV, int PLog2Max>
struct OnlineSoftmaxScaledP : OnlineSoftmax<BlockN, HeadDimV> {
  using Base = OnlineSoftmax<BlockN, HeadDimV>;
  using Base::half;
  using Base::row_max;
  using Base::row_sum;

#if defined(__CUDACC__)
  /// Folds the block's scores in: s becomes 2^PLog2Max · 2^(scale_log2 (s - max)), in [0, 2^PLog2Max];
  /// returns each row half's correction of O (the maximum having moved).
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
      // A row that sees no key yet keeps -inf: its P are 0 (exp2(-inf)), not NaN.
      float const top = block_max[h] == -INFINITY ? 0.0f : block_max[h] * scale_log2;
      offset[h] = top - float(PLog2Max);
      correction[h] = arch::exp2(row_max[h] * scale_log2 - top);
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

  /// After the last block: O *= out_scale / row sum (out_scale: V's descale); returns each row
  /// half's LSE (natural log, of the unscaled P; -inf for a row that saw no key, whose O is 0).
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
#endif
};

}  // namespace cute_cpp
