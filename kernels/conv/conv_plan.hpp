// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The convolution kernels' static plans and the index arithmetic the host computes too: the
// implicit GEMM's tile plan (ConvGemmPlan) and its rules, the transposed conv's plan, the
// depthwise conv's plan, the im2col gather of the A operand (conv_gather), the packed weight's
// source index for Conv1d and ConvTranspose1d weights, and the epilogue's activations (GELU,
// SnakeBeta with log-scale parameters). Host and device; compiles with plain g++ (tests/cpu/conv).
#include <cute_cpp/config.hpp>  // CUTE_CPP_HD

#include <cmath>
#include <cstddef>
#include <cstdint>

// ---- rules on the static choices (template arguments = the offending values) ----
// In cute_cpp::diag with the library's other rules: a cute_cpp::kernels::diag would hide that namespace
// from every plan in cute_cpp::kernels included after this header.
namespace cute_cpp::diag {
/// Rule conv.plan.tile: the block tile is whole 16 x 16 warp pieces, and a stage of A and of B is
/// whole rounds of the block's 16-byte cp.async copies (TileM * 4 and TileN * 4 vectors).
template <int TileM, int TileN, int WarpsM, int WarpsN>
struct conv_tile_valid {
  static_assert(TileM >= 32 && TileN >= 32 && TileM <= 256 && TileN <= 256 && TileM % (16 * WarpsM) == 0 &&
                    TileN % (16 * WarpsN) == 0 && (TileM * 4) % (32 * WarpsM * WarpsN) == 0 &&
                    (TileN * 4) % (32 * WarpsM * WarpsN) == 0,
                "cute-cpp [conv.plan.tile]: TileM and TileN must be in 32..256, multiples of 16 per warp, and a "
                "stage's 16-byte copies (4 a row) a multiple of the block's threads");
  static constexpr bool ok = true;
};
/// Rule conv.plan.stages: the cp.async ring holds 2 to 4 k-tiles.
template <int Stages>
struct conv_stages_valid {
  static_assert(Stages >= 2 && Stages <= 4, "cute-cpp [conv.plan.stages]: the cp.async ring takes 2 to 4 stages");
  static constexpr bool ok = true;
};
/// Rule conv.plan.transposed-kernel: the transposed conv runs as a causal conv over its s output
/// phases, each with KernelSize / Stride taps, so the kernel size is a positive multiple of the stride.
template <int Stride, int KernelSize>
struct conv_transposed_kernel_valid {
  static_assert(Stride >= 1 && KernelSize >= Stride && KernelSize % Stride == 0 && KernelSize / Stride <= 8,
                "cute-cpp [conv.plan.transposed-kernel]: the kernel size must be a multiple of the stride, at most "
                "8 strides (Qwen3-TTS: 2 * stride, or the stride)");
  static constexpr bool ok = true;
};
/// Rule conv.plan.depthwise-kernel: the depthwise conv holds its window of Kernel inputs in registers.
template <int Kernel>
struct conv_depthwise_kernel_valid {
  static_assert(Kernel >= 1 && Kernel <= 16, "cute-cpp [conv.plan.depthwise-kernel]: the depthwise kernel size must be in 1..16");
  static constexpr bool ok = true;
};
}  // namespace cute_cpp::diag

namespace cute_cpp::kernels {

// ---- plans ----

/// The implicit GEMM's block tile: TileM time steps x TileN output columns, k-tiles of 32 (taps x
/// input channels), WarpsM x WarpsN warps of mma.sync m16n8k16, a ring of Stages cp.async stages.
template <int TileM, int TileN, int WarpsM, int WarpsN, int Stages>
struct ConvGemmPlan {
  static_assert(diag::conv_tile_valid<TileM, TileN, WarpsM, WarpsN>::ok && diag::conv_stages_valid<Stages>::ok);
  static constexpr int tile_m = TileM, tile_n = TileN, tile_k = 32;
  static constexpr int warps_m = WarpsM, warps_n = WarpsN, stages = Stages;
  static constexpr int threads = 32 * WarpsM * WarpsN;
  static constexpr int vec = 8;  // bf16 / f16 elements in one 16-byte copy
  // NOTE: shared rows padded from 32 to 40 elements (80 bytes), so the 8 row addresses of one
  // ldmatrix fall in 8 different groups of 4 banks (examples/warp_mma_gemm has the reasoning).
  static constexpr int row_stride = tile_k + 8;
  static constexpr int a_stage_elems = TileM * row_stride, b_stage_elems = TileN * row_stride;
  static constexpr std::size_t smem_bytes = std::size_t(Stages) * (a_stage_elems + b_stage_elems) * 2;
  static constexpr int a_copies = TileM * tile_k / vec / threads;  // 16-byte copies of A a thread a stage
  static constexpr int b_copies = TileN * tile_k / vec / threads;
};

/// The wide tile: 128 x 128, 8 warps (4 x 2, each 32 x 64), 3 stages (60 KiB): for C_out >= 128.
using ConvWidePlan = ConvGemmPlan<128, 128, 4, 2, 3>;
/// The narrow tile: 128 x 64, 4 warps (4 x 1, each 32 x 64), 4 stages (48 KiB): for the decoder's
/// last blocks (96 and 192 channels) and the 1-channel output conv.
using ConvNarrowPlan = ConvGemmPlan<128, 64, 4, 1, 4>;

/// A causal transposed conv of static stride and kernel size, run by the implicit GEMM Gemm.
template <int Stride, int KernelSize, class Gemm = ConvWidePlan>
struct ConvTransposePlan {
  static_assert(diag::conv_transposed_kernel_valid<Stride, KernelSize>::ok);
  static constexpr int stride = Stride, kernel_size = KernelSize;
  static constexpr int taps = KernelSize / Stride;  // input frames that reach one output sample
  static constexpr int trim_right = KernelSize - Stride;
  using gemm = Gemm;
};

/// The depthwise causal conv (groups = channels): static kernel size, dilation 1.
template <int Kernel>
struct DepthwiseConvPlan {
  static_assert(diag::conv_depthwise_kernel_valid<Kernel>::ok);
  static constexpr int kernel = Kernel;
  static constexpr int state_len = Kernel - 1;
  static constexpr int channels_per_block = 128;
  static constexpr int tile = 64;  // time steps a thread walks
};

/// ConvNeXt's depthwise conv in Qwen3-TTS's decoder: kernel 7.
using ConvNextDepthwisePlan = DepthwiseConvPlan<7>;

// ---- the implicit GEMM's index arithmetic ----

/// A causal conv as a GEMM: out[t, n] = sum_kk A[t, kk] * W[n, kk] over kk = tap * c_in + ci,
/// where A[t, kk] = x[t - (taps - 1 - tap) * dilation, ci]; the inputs before t = 0 come from
/// the carried state (the last state_len() inputs of the previous chunk) or are zero.
struct ConvGeometry {
  int c_in = 0;
  int taps = 1;
  int dilation = 1;
  [[nodiscard]] CUTE_CPP_HD constexpr int state_len() const { return (taps - 1) * dilation; }
  [[nodiscard]] CUTE_CPP_HD constexpr std::int64_t k_total() const { return std::int64_t(taps) * c_in; }
};

/// Where an element of A comes from: x's row `row`, the state's row `row`, or nowhere (zero).
struct ConvSource {
  enum Kind : int { zero = 0, input = 1, state = 2 };
  Kind kind = zero;
  int row = 0;
  int ci = 0;
};

/// A[t, kk]'s source for a chunk of `length` inputs (t < length), with or without a state.
///   c_in 4, taps 3, dilation 2: A[1, 5] = tap 1, ci 1 -> x[1 - 2, 1] -> state row 3 (of 4)
CUTE_CPP_HD constexpr ConvSource conv_gather(ConvGeometry g, int t, std::int64_t kk, bool has_state) {
  int const tap = int(kk / g.c_in), ci = int(kk - std::int64_t(tap) * g.c_in);
  int const src = t - (g.taps - 1 - tap) * g.dilation;
  if (src >= 0) return {ConvSource::input, src, ci};
  if (has_state && src >= -g.state_len()) return {ConvSource::state, g.state_len() + src, ci};
  return {ConvSource::zero, 0, ci};
}

/// The packed weight's source for a Conv1d weight (c_out, c_in, taps) (PyTorch's layout): packed
/// (c_out, taps * c_in) with ci contiguous, W[n, tap * c_in + ci] = w[n, ci, tap].
CUTE_CPP_HD constexpr std::int64_t conv_weight_source(int c_in, int taps, int n, std::int64_t kk) {
  int const tap = int(kk / c_in), ci = int(kk - std::int64_t(tap) * c_in);
  return (std::int64_t(n) * c_in + ci) * taps + tap;
}

/// The packed weight's source for a ConvTranspose1d weight (c_in, c_out, kernel) (PyTorch's
/// layout) of stride s: output t = s q + r takes x[q - j] through w[:, :, r + j s] (j < taps =
/// kernel / s), so column n = r * c_out + co, tap = taps - 1 - j of the packed (s * c_out, taps *
/// c_in) weight is w[ci, co, r + (taps - 1 - tap) s].
///   c_out 2, stride 3, kernel 6 (taps 2): n 5 (r 2, co 1), tap 0 -> w[ci, 1, 5]
CUTE_CPP_HD constexpr std::int64_t conv_transpose_weight_source(int c_in, int c_out, int stride, int kernel, int n,
                                                                std::int64_t kk) {
  int const taps = kernel / stride;
  int const tap = int(kk / c_in), ci = int(kk - std::int64_t(tap) * c_in);
  int const r = n / c_out, co = n - r * c_out;
  return (std::int64_t(ci) * c_out + co) * kernel + r + (taps - 1 - tap) * stride;
}

/// The causal transposed conv's output length: ConvTranspose1d gives (length - 1) s + kernel
/// samples; Qwen3-TTS trims kernel - s on the right, leaving length * s.
CUTE_CPP_HD constexpr std::int64_t conv_transpose_output_length(std::int64_t length, int stride) {
  return length * stride;
}

// ---- the epilogue's activations ----

/// What the epilogue applies to acc + bias (then a residual, if any, is added).
enum class ConvActivation : int { none = 0, gelu = 1, snake_beta = 2 };

/// The SnakeBeta denominator's guard (Qwen3-TTS's `no_div_by_zero`).
inline constexpr double snake_beta_eps = 1e-9;

/// GELU, erf form (torch.nn.GELU(approximate='none')): x / 2 (1 + erf(x / sqrt 2)).
template <class F>
CUTE_CPP_HD inline F gelu_erf(F x) {
  if constexpr (sizeof(F) == 4) return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
  else return 0.5 * x * (1.0 + erf(x * 0.70710678118654752));
}

/// SnakeBeta with log-scale parameters (Qwen3-TTS stores log alpha and log beta):
/// x + sin^2(x e^alpha_log) / (e^beta_log + 1e-9). The kernels pass a = e^alpha_log and
/// inv_b = 1 / (e^beta_log + 1e-9), computed once a column.
template <class F>
CUTE_CPP_HD inline F snake_beta(F x, F a, F inv_b) {
  if constexpr (sizeof(F) == 4) {
    // NOTE: sin of the argument reduced to [-pi, pi] by 2 pi in two parts (Cody-Waite), then the
    // hardware's __sinf (abs. error ~2^-21.4 there): sinf's own slow path for large arguments keeps
    // a table in local memory, which the SASS checks refuse.
    float const v = x * a;
    float const q = rintf(v * 0.159154943091895336f);
    float const r = fmaf(-q, -1.74845553e-7f, fmaf(-q, 6.28318548202514648f, v));
#if defined(__CUDA_ARCH__)
    float const s = __sinf(r);
#else
    float const s = sinf(r);
#endif
    return fmaf(s * s, inv_b, x);
  } else {
    double const s = sin(x * a);
    return x + s * s * inv_b;
  }
}

}  // namespace cute_cpp::kernels
