// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The MoE block's experts for a decode step's few tokens (moe_layer takes it up to
// moe_decode_tokens): two launches straight from the router's choices, where the grouped path
// permutes the rows, gathers x, prepares two grouped GEMMs (a 64-row tile for each expert's one or
// two rows) and combines:
//   1. moe_decode_first_kernel: for each (token, choice) pair, h = act(x W1_e^T) over the chosen
//      expert's first weight (SwiGLU of its interleaved gate-up rows, or the squared ReLU of its up
//      rows), a warp an output, each weight row read once a pair;
//   2. moe_decode_down_kernel: y[t] = (the shared expert's row +) sum over t's choices of weight *
//      bf16(h_pair Wd_e^T), a warp an output column, in f32 in choice order (the grouped path's
//      rounding and order).
// A ReLU^2 shared expert (Nemotron-H's) folds into the same two launches (moe_decode_experts'
// h_shared): step 1 takes T more rows, each token's up product (rounded to bf16 before the square,
// as the dense path and transformers compute it), and step 2 starts each sum from bf16(h_shared Wd^T),
// so its 2 x 20 MB stream with the routed experts' instead of in three launches of its own.
// The weights of an expert are read as often as tokens chose it (L2 keeps what two tokens share).
// Deterministic: no atomics, every sum in a fixed order.
#include <cute_cpp/kernels/gemm/simt_gemv.cuh>  // gemv::fma_vector
#include <cute_cpp/kernels/moe/moe_shape.hpp>

#include <cute_cpp/arch/griddepcontrol.hpp>
#include <cute_cpp/epilogue/fusion.hpp>  // SiLU, ReLUSquared, gated_gate_row / gated_up_row
#include <cute_cpp/host/error.hpp>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace cute_cpp::kernels::moe {

namespace decode {
inline constexpr int threads = 256, warps = threads / 32;

using gemv::fma_vector;  // the skinny kernels' 16-byte bf16 dot step

/// a . b over `n` elements (n a multiple of 8), this lane's share: 16-byte loads, four in flight.
__device__ __forceinline__ float lane_dot(bf16 const* a, bf16 const* b, std::int64_t n) {
  constexpr int vector = 8, round = 4;
  int const lane = int(threadIdx.x) % 32;
  std::int64_t const vectors = n / vector;
  float acc = 0.0f;
  for (std::int64_t v0 = lane; v0 < vectors; v0 += round * 32) {
    uint4 x[round], y[round];
#pragma unroll
    for (int u = 0; u < round; ++u) {
      if (v0 + u * 32 >= vectors) continue;
      x[u] = __ldg(reinterpret_cast<uint4 const*>(a) + v0 + u * 32);
      y[u] = __ldg(reinterpret_cast<uint4 const*>(b) + v0 + u * 32);
    }
#pragma unroll
    for (int u = 0; u < round; ++u) {
      if (v0 + u * 32 >= vectors) continue;
      fma_vector(x[u], y[u], acc);
    }
  }
  return acc;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

/// Choices a down-projection warp reads at once (moe_decode_down_kernel): 4, so that the kernel
/// fits 64 registers a thread and 4 CTAs an SM (down_ctas_per_sm). With 8 it took 124 registers,
/// 2 CTAs an SM, and a down launch of 336 CTAs (Nemotron-3 Nano's H = 2688 at one token) ran in
/// two waves on 132 SMs where it had run in one.
inline constexpr int down_group = 4, down_ctas_per_sm = 4;

/// dot[c] = a[c] . b[c] over `n` elements (a multiple of 8) for the first `count` <= down_group
/// pairs, the warp's sums in every lane: each round loads a 16-byte vector of every pair's operands
/// before it uses any, so rows of a few KB cost one memory round trip a vector of the lane for all
/// the pairs, where one dot after another cost one a pair.
__device__ __forceinline__ void warp_dots(bf16 const* const (&a)[down_group], bf16 const* const (&b)[down_group],
                                          int count, std::int64_t n, float (&dot)[down_group]) {
  int const lane = int(threadIdx.x) % 32;
  float acc[down_group] = {};
  for (std::int64_t v = lane; v < n / 8; v += 32) {
    uint4 x[down_group], y[down_group];
#pragma unroll
    for (int c = 0; c < down_group; ++c) {
      if (c >= count) break;
      x[c] = __ldg(reinterpret_cast<uint4 const*>(a[c]) + v);
      y[c] = __ldg(reinterpret_cast<uint4 const*>(b[c]) + v);
    }
#pragma unroll
    for (int c = 0; c < down_group; ++c) {
      if (c >= count) break;
      fma_vector(x[c], y[c], acc[c]);
    }
  }
#pragma unroll
  for (int c = 0; c < down_group; ++c) dot[c] = warp_sum(acc[c]);
}
}  // namespace decode

/// Step 1's operands: x (T, H); the (T, k) choices; each expert's first weight, `w1_rows` x H
/// (2F interleaved gate-up rows, or F up rows), the experts' one after another; h (T k, F). With a
/// folded ReLU^2 shared expert, its up weight (Fs, H) and h_shared (T, Fs): rows `pairs` on of the
/// grid are its tokens'.
struct MoeDecodeFirst {
  bf16 const* x = nullptr;
  std::int32_t const* ids = nullptr;
  bf16 const* w1 = nullptr;
  bf16* h = nullptr;
  std::int64_t hidden = 0, ffn = 0, w1_rows = 0;
  int top_k = 1;
  std::int64_t pairs = 0;  ///< T k: the grid's rows past it are the shared expert's
  bf16 const* shared_up = nullptr;
  bf16* h_shared = nullptr;
  std::int64_t shared_ffn = 0;
};

/// h[pair, r] = act(x[token] . W1_e rows): warp w of CTA (bx, pair) takes output r = 8 bx + w.
template <MoeActivation Act>
__global__ void __launch_bounds__(decode::threads) moe_decode_first_kernel(MoeDecodeFirst const p) {
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();  // the choices and x are the kernels' before
  std::int64_t const pair = blockIdx.y, r = std::int64_t(blockIdx.x) * decode::warps + threadIdx.x / 32;
  if (pair >= p.pairs) {  // the folded shared expert: token pair - pairs, its output r
    if (r >= p.shared_ffn) return;
    std::int64_t const t = pair - p.pairs;
    float const up = decode::warp_sum(decode::lane_dot(p.x + t * p.hidden, p.shared_up + r * p.hidden, p.hidden));
    float const out = epilogue::ReLUSquared{}(__bfloat162float(__float2bfloat16_rn(up)));
    if (threadIdx.x % 32 == 0) p.h_shared[t * p.shared_ffn + r] = __float2bfloat16_rn(out);
    return;
  }
  if (r >= p.ffn) return;
  bf16 const* const x = p.x + pair / p.top_k * p.hidden;
  bf16 const* const w = p.w1 + std::int64_t(p.ids[pair]) * p.w1_rows * p.hidden;
  float out;
  if constexpr (Act == MoeActivation::swiglu) {
    float const gate = decode::warp_sum(decode::lane_dot(x, w + epilogue::gated_gate_row(r) * p.hidden, p.hidden));
    float const up = decode::warp_sum(decode::lane_dot(x, w + epilogue::gated_up_row(r) * p.hidden, p.hidden));
    out = epilogue::SwiGLU{}(gate, up);
  } else {
    out = epilogue::ReLUSquared{}(decode::warp_sum(decode::lane_dot(x, w + r * p.hidden, p.hidden)));
  }
  if (threadIdx.x % 32 == 0) p.h[pair * p.ffn + r] = __float2bfloat16_rn(out);
}

/// moe_decode_first_kernel on a rank (MoeShape::local_experts): a pair whose id is `foreign`, another
/// rank's expert (MoeShape::foreign_group), computes nothing (its h row is never read).
/// NOTE: a kernel of its own, with the one-device kernel's body repeated, because routing both
/// through one template body changed the one-device kernel's SASS on sm_100a and sm_120a.
template <MoeActivation Act>
__global__ void __launch_bounds__(decode::threads) moe_decode_first_local_kernel(MoeDecodeFirst const p, int foreign) {
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();  // the choices and x are the kernels' before
  std::int64_t const pair = blockIdx.y, r = std::int64_t(blockIdx.x) * decode::warps + threadIdx.x / 32;
  if (r >= p.ffn || p.ids[pair] == foreign) return;
  bf16 const* const x = p.x + pair / p.top_k * p.hidden;
  bf16 const* const w = p.w1 + std::int64_t(p.ids[pair]) * p.w1_rows * p.hidden;
  float out;
  if constexpr (Act == MoeActivation::swiglu) {
    float const gate = decode::warp_sum(decode::lane_dot(x, w + epilogue::gated_gate_row(r) * p.hidden, p.hidden));
    float const up = decode::warp_sum(decode::lane_dot(x, w + epilogue::gated_up_row(r) * p.hidden, p.hidden));
    out = epilogue::SwiGLU{}(gate, up);
  } else {
    out = epilogue::ReLUSquared{}(decode::warp_sum(decode::lane_dot(x, w + r * p.hidden, p.hidden)));
  }
  if (threadIdx.x % 32 == 0) p.h[pair * p.ffn + r] = __float2bfloat16_rn(out);
}

/// Step 2's operands: h (T k, F); the (T, k) choices and weights; each expert's down weight (H, F),
/// one after another; the shared expert's output (T, H) or null; y (T, H). With a folded shared
/// expert, its down weight (H, Fs) and step 1's h_shared (T, Fs) instead of its output.
struct MoeDecodeDown {
  bf16 const* h = nullptr;
  std::int32_t const* ids = nullptr;
  float const* weights = nullptr;
  bf16 const* down = nullptr;
  bf16 const* shared = nullptr;
  bf16* y = nullptr;
  std::int64_t hidden = 0, ffn = 0;
  int top_k = 1;
  bf16 const* shared_down = nullptr;
  bf16 const* h_shared = nullptr;
  std::int64_t shared_ffn = 0;
};

/// y[t, j] = shared[t, j] + sum_c weights[t, c] * bf16(h[t k + c] . Wd_{ids[t, c]} row j): warp w
/// of CTA (bx, t) takes column j = 8 bx + w, decode::down_group choices' rows at once
/// (decode::warp_dots: an expert's down row is F x 2 bytes, 1.5 KB at Qwen3-30B-A3B's F, so one dot
/// after another left the warp waiting on memory k times). Each choice's row rounded to bf16 and the
/// sum from the shared row on in choice order, as the grouped path's down GEMM stores its rows and
/// combine_kernel adds them, so a token's y does not depend on which path its step took.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void __launch_bounds__(decode::threads, decode::down_ctas_per_sm)
    moe_decode_down_kernel(MoeDecodeDown const p) {
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();  // h is the kernel's before
  std::int64_t const t = blockIdx.y, j = std::int64_t(blockIdx.x) * decode::warps + threadIdx.x / 32;
  if (j >= p.hidden) return;
  float acc = p.shared != nullptr ? __bfloat162float(p.shared[t * p.hidden + j]) : 0.0f;
  if (p.h_shared != nullptr) {  // the folded shared expert's row, rounded to bf16 as its dense product is
    float const shared = decode::warp_sum(
        decode::lane_dot(p.h_shared + t * p.shared_ffn, p.shared_down + j * p.shared_ffn, p.shared_ffn));
    acc = __bfloat162float(__float2bfloat16_rn(shared));
  }
  for (int c0 = 0; c0 < p.top_k; c0 += decode::down_group) {  // the choices' rows in flight together
    int const count = min(decode::down_group, p.top_k - c0);
    bf16 const* h[decode::down_group];
    bf16 const* row[decode::down_group];
#pragma unroll
    for (int c = 0; c < decode::down_group; ++c) {
      std::int64_t const pair = t * p.top_k + c0 + min(c, count - 1);  // past count: never read
      h[c] = p.h + pair * p.ffn;
      row[c] = p.down + (std::int64_t(p.ids[pair]) * p.hidden + j) * p.ffn;
    }
    float expert[decode::down_group];
    decode::warp_dots(h, row, count, p.ffn, expert);
#pragma unroll
    for (int c = 0; c < decode::down_group; ++c) {
      if (c >= count) break;
      acc = fmaf(p.weights[t * p.top_k + c0 + c], __bfloat162float(__float2bfloat16_rn(expert[c])), acc);
    }
  }
  if (threadIdx.x % 32 == 0) p.y[t * p.hidden + j] = __float2bfloat16_rn(acc);
}

/// moe_decode_down_kernel on a rank: the choices of id `foreign` (other ranks' experts) left out, as
/// combine_local_kernel leaves them out. A kernel of its own, as moe_decode_first_local_kernel.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void __launch_bounds__(decode::threads) moe_decode_down_local_kernel(MoeDecodeDown const p, int foreign) {
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();  // h is the kernel's before
  std::int64_t const t = blockIdx.y, j = std::int64_t(blockIdx.x) * decode::warps + threadIdx.x / 32;
  if (j >= p.hidden) return;
  float acc = p.shared != nullptr ? __bfloat162float(p.shared[t * p.hidden + j]) : 0.0f;
  for (int c = 0; c < p.top_k; ++c) {
    std::int64_t const pair = t * p.top_k + c;
    if (p.ids[pair] == foreign) continue;
    bf16 const* const row = p.down + (std::int64_t(p.ids[pair]) * p.hidden + j) * p.ffn;
    float const expert = decode::warp_sum(decode::lane_dot(p.h + pair * p.ffn, row, p.ffn));
    acc = fmaf(p.weights[pair], __bfloat162float(__float2bfloat16_rn(expert)), acc);
  }
  if (threadIdx.x % 32 == 0) p.y[t * p.hidden + j] = __float2bfloat16_rn(acc);
}

/// Whether a decode step's two launches take the shared expert in too (moe_decode_experts' h_shared):
/// a ReLU^2 one (shared_expert_dense) on one device, its width a multiple of 8 (16-byte loads).
[[nodiscard]] constexpr bool moe_decode_folds_shared(MoeShape const& s) {
  return shared_expert_dense(s) && s.local_experts == 0 && s.shared_ffn % 8 == 0;
}

/// The routed experts of s.tokens <= moe_decode_tokens tokens as the two launches above: from the
/// router's `ids` and `weights` (T, k), into `h` (T k, F) and y (T, H), adding `shared` (T, H) when
/// given; with `h_shared` (T, Fs) instead, the ReLU^2 shared expert of w.shared_up / w.shared_down
/// folded into the two launches (moe_decode_folds_shared). `foreign_choices` (a rank; s is then
/// MoeShape::on_rank's shape): `ids` also hold s.experts, another rank's choice, which the *_local
/// kernels skip. @pre the shape and pointers passed moe_layer's checks.
inline void moe_decode_experts(bf16 const* x, MoeWeights const& w, MoeShape const& s, std::int32_t const* ids,
                               float const* weights, bf16* h, bf16 const* shared, bf16* y, cudaStream_t stream,
                               bool foreign_choices = false, bf16* h_shared = nullptr) {
  bool const fold = h_shared != nullptr && !foreign_choices;
  MoeDecodeFirst first{.x = x, .ids = ids, .w1 = s.gated() ? w.gate_up : w.up, .h = h, .hidden = s.hidden,
                       .ffn = s.ffn, .w1_rows = s.gated() ? 2 * s.ffn : s.ffn, .top_k = s.top_k, .pairs = s.rows()};
  MoeDecodeDown down{.h = h, .ids = ids, .weights = weights, .down = w.down, .shared = shared, .y = y,
                     .hidden = s.hidden, .ffn = s.ffn, .top_k = s.top_k};
  std::int64_t first_columns = s.ffn, first_rows = s.rows();
  if (fold) {
    first.shared_up = w.shared_up, first.h_shared = h_shared, first.shared_ffn = s.shared_ffn;
    down.shared = nullptr, down.shared_down = w.shared_down, down.h_shared = h_shared, down.shared_ffn = s.shared_ffn;
    first_columns = std::max(s.ffn, s.shared_ffn), first_rows += s.tokens;
  }
  dim3 const first_grid(unsigned((first_columns + decode::warps - 1) / decode::warps), unsigned(first_rows));
  dim3 const down_grid(unsigned((s.hidden + decode::warps - 1) / decode::warps), unsigned(s.tokens));
  if (foreign_choices) {
    int const foreign = s.experts;  // the rank's foreign group: one past its local experts
    if (s.gated())
      moe_decode_first_local_kernel<MoeActivation::swiglu><<<first_grid, decode::threads, 0, stream>>>(first, foreign);
    else
      moe_decode_first_local_kernel<MoeActivation::relu2><<<first_grid, decode::threads, 0, stream>>>(first, foreign);
    moe_decode_down_local_kernel<><<<down_grid, decode::threads, 0, stream>>>(down, foreign);
  } else {
    if (s.gated()) moe_decode_first_kernel<MoeActivation::swiglu><<<first_grid, decode::threads, 0, stream>>>(first);
    else moe_decode_first_kernel<MoeActivation::relu2><<<first_grid, decode::threads, 0, stream>>>(first);
    moe_decode_down_kernel<><<<down_grid, decode::threads, 0, stream>>>(down);
  }
  host::cuda_check(cudaGetLastError(), "moe decode experts launch");
}

}  // namespace cute_cpp::kernels::moe
