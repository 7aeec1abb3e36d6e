// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// A mixture-of-experts FFN block (Qwen3-MoE, Mixtral, DeepSeek's routed experts) on the Hopper
// GEMMs, with the host reading nothing that depends on the tokens (one stream of launches, CUDA-graph
// friendly):
//   1. router logits = x Wr^T (the dense GEMM), (T, E);
//   2. moe_route: per token, softmax over the E experts (f32), the top k, their probabilities
//      (renormalized to sum to 1 when asked: Qwen3's norm_topk_prob);
//   3. moe_permute: each expert's rows (how many tokens chose it, the grouped GEMM's offsets) and
//      each (token, choice)'s row in expert order; moe_gather copies x's rows there;
//   4. the experts' gate-up projection, one grouped GEMM with the SwiGLU epilogue against each
//      expert's fused weight (2F, H), gate and up rows interleaved in blocks of 8 (pack_gate_up);
//   5. the experts' down projection, a grouped GEMM against each expert's (H, F) weight;
//   6. moe_combine: y[t] = sum over its k choices of weight * the choice's row (f32 sum, bf16 out).
// Within an expert, rows are in no fixed order (step 3 takes slots with atomics); each row's
// result does not depend on the order, so y is deterministic.
// Constraints [moe.shape]: E <= 256 experts, k <= 16 of them per token (k <= E), H and F multiples
// of 8; T * k below 2^31.
#include <cute_cpp/kernels/gemm/grouped_gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/epilogue/split_k_reduce.hpp>  // split_k_counter_bytes
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cute_cpp::kernels::moe {

using bf16 = __nv_bfloat16;

inline constexpr int max_experts = 256;  ///< a warp's lanes hold 8 logits each
inline constexpr int max_top_k = 16;

/// The experts' weights as the layer reads them: the router (E, H), each expert's fused gate-up
/// weight (2F, H) (E of them, contiguous) and down weight (H, F).
struct MoeWeights {
  bf16 const* router = nullptr;
  bf16 const* gate_up = nullptr;
  bf16 const* down = nullptr;
};

/// The layer's sizes.
struct MoeShape {
  std::int64_t tokens = 0, hidden = 0, ffn = 0;  ///< T, H, F (each expert's FFN)
  int experts = 0, top_k = 0;
  bool renormalize = true;  ///< the top k's probabilities divided by their sum
  [[nodiscard]] std::int64_t rows() const { return tokens * top_k; }  ///< rows in expert order
};

inline void check_moe_shape(MoeShape const& s) {
  if (s.experts < 1 || s.experts > max_experts || s.top_k < 1 || s.top_k > max_top_k || s.top_k > s.experts ||
      s.hidden < 8 || s.hidden % 8 != 0 || s.ffn < 8 || s.ffn % 8 != 0 || s.tokens < 0 ||
      s.rows() >= (std::int64_t{1} << 31))
    host::argument_error("moe.shape", "1 <= E <= " + std::to_string(max_experts) + " experts, 1 <= k <= min(E, " +
                                          std::to_string(max_top_k) + "), H and F multiples of 8, T k < 2^31 (got E=" +
                                          std::to_string(s.experts) + ", k=" + std::to_string(s.top_k) + ", H=" +
                                          std::to_string(s.hidden) + ", F=" + std::to_string(s.ffn) + ", T=" +
                                          std::to_string(s.tokens) + ")");
}

/// One warp per token: softmax of its logits, the top k (ties: the lower expert), their
/// probabilities. Lane l holds experts l, l + 32, ...
__global__ void __launch_bounds__(256) route_kernel(bf16 const* logits, std::int64_t ld, std::int64_t tokens, int experts,
                                                    int top_k, bool renormalize, std::int32_t* ids, float* weights) {
  constexpr int per_lane = max_experts / 32;
  std::int64_t const token = std::int64_t(blockIdx.x) * 8 + threadIdx.x / 32;
  int const lane = int(threadIdx.x % 32);
  if (token >= tokens) return;
  float v[per_lane];
  float top = -INFINITY;
#pragma unroll
  for (int i = 0; i < per_lane; ++i) {
    int const e = lane + 32 * i;
    v[i] = e < experts ? __bfloat162float(logits[token * ld + e]) : -INFINITY;
    top = fmaxf(top, v[i]);
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2) top = fmaxf(top, __shfl_xor_sync(~0u, top, d));
  float sum = 0;
#pragma unroll
  for (int i = 0; i < per_lane; ++i) {
    v[i] = lane + 32 * i < experts ? __expf(v[i] - top) : -1.0f;  // -1: no expert (below every probability)
    sum += fmaxf(v[i], 0.0f);
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2) sum += __shfl_xor_sync(~0u, sum, d);
  // Lane j keeps choice j (no per-thread array: it would live in local memory).
  float mine = 0, chosen_sum = 0;
  int mine_id = 0;
  for (int j = 0; j < top_k; ++j) {
    float best = -2.0f;
    int best_id = experts;
#pragma unroll
    for (int i = 0; i < per_lane; ++i)
      if (v[i] > best) best = v[i], best_id = lane + 32 * i;  // lanes see their experts in increasing order
#pragma unroll
    for (int d = 16; d > 0; d /= 2) {
      float const other = __shfl_xor_sync(~0u, best, d);
      int const other_id = __shfl_xor_sync(~0u, best_id, d);
      if (other > best || (other == best && other_id < best_id)) best = other, best_id = other_id;
    }
#pragma unroll
    for (int i = 0; i < per_lane; ++i)
      if (lane + 32 * i == best_id) v[i] = -1.5f;  // taken
    if (lane == j) mine = best / sum, mine_id = best_id;
    chosen_sum += best / sum;
  }
  if (lane < top_k) {
    ids[token * top_k + lane] = mine_id;
    weights[token * top_k + lane] = renormalize ? mine / chosen_sum : mine;
  }
}

/// One CTA: how many (token, choice) pairs chose each expert, the experts' offsets (ends, the
/// grouped GEMM's), and each pair's row in expert order.
__global__ void __launch_bounds__(1024) permute_kernel(std::int32_t const* ids, std::int64_t pairs, int experts,
                                                       std::int32_t* offsets, std::int32_t* rows) {
  __shared__ std::int32_t count[max_experts];
  __shared__ std::int32_t cursor[max_experts];
  for (int e = int(threadIdx.x); e < experts; e += int(blockDim.x)) count[e] = 0;
  __syncthreads();
  for (std::int64_t i = threadIdx.x; i < pairs; i += blockDim.x) atomicAdd(&count[ids[i]], 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    std::int32_t end = 0;
    for (int e = 0; e < experts; ++e) {
      cursor[e] = end;
      end += count[e];
      offsets[e] = end;
    }
  }
  __syncthreads();
  for (std::int64_t i = threadIdx.x; i < pairs; i += blockDim.x) rows[i] = atomicAdd(&cursor[ids[i]], 1);
}

/// x_perm[rows[i]] = x[i / k], 16 bytes a lane, a warp a row.
__global__ void gather_kernel(bf16 const* x, std::int32_t const* rows, std::int64_t pairs, int top_k,
                              std::int64_t hidden, bf16* x_perm) {
  std::int64_t const i = std::int64_t(blockIdx.x) * 8 + threadIdx.x / 32;
  if (i >= pairs) return;
  auto const* src = reinterpret_cast<uint4 const*>(x + (i / top_k) * hidden);
  auto* dst = reinterpret_cast<uint4*>(x_perm + std::int64_t(rows[i]) * hidden);
  for (std::int64_t c = threadIdx.x % 32; c < hidden / 8; c += 32) dst[c] = src[c];
}

/// y[t] = sum_j weights[t, j] * y_perm[rows[t k + j]], f32 sums, 8 columns a lane, a warp a token.
__global__ void combine_kernel(bf16 const* y_perm, std::int32_t const* rows, float const* weights,
                               std::int64_t tokens, int top_k, std::int64_t hidden, bf16* y) {
  std::int64_t const t = std::int64_t(blockIdx.x) * 8 + threadIdx.x / 32;
  if (t >= tokens) return;
  for (std::int64_t c = threadIdx.x % 32; c < hidden / 8; c += 32) {
    float acc[8] = {};
    for (int j = 0; j < top_k; ++j) {
      float const w = weights[t * top_k + j];
      uint4 const v = reinterpret_cast<uint4 const*>(y_perm + std::int64_t(rows[t * top_k + j]) * hidden)[c];
      auto const* h = reinterpret_cast<__nv_bfloat162 const*>(&v);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        float2 const f = __bfloat1622float2(h[e]);
        acc[2 * e] += w * f.x;
        acc[2 * e + 1] += w * f.y;
      }
    }
    uint4 out;
    auto* o = reinterpret_cast<__nv_bfloat162*>(&out);
#pragma unroll
    for (int e = 0; e < 4; ++e) o[e] = __floats2bfloat162_rn(acc[2 * e], acc[2 * e + 1]);
    reinterpret_cast<uint4*>(y + t * hidden)[c] = out;
  }
}

/// The layer's scratch buffers (moe_scratch_bytes long, 256-byte aligned), carved in order.
struct MoeScratch {
  bf16* logits;         ///< (T, E)
  std::int32_t* ids;    ///< (T, k) chosen experts
  float* weights;       ///< (T, k) their probabilities
  std::int32_t* offsets;  ///< (E) each expert's end row
  std::int32_t* rows;   ///< (T, k) each choice's row in expert order
  bf16* x_perm;         ///< (T k, H)
  bf16* h;              ///< (T k, F)
  bf16* y_perm;         ///< (T k, H)
  void* gemm_workspace;  ///< the router GEMM's split-K counters and partials (zeroed once), first
  std::size_t gemm_workspace_bytes;
  void* grouped_workspace;
  std::size_t grouped_workspace_bytes;
  std::size_t bytes;

  MoeScratch(void* base, MoeShape const& s) {
    auto at = reinterpret_cast<std::uintptr_t>(base);
    std::size_t used = 0;
    auto const take = [&](std::size_t n) {
      n = (n + 255) / 256 * 256;
      void* p = reinterpret_cast<void*>(at + used);
      used += n;
      return p;
    };
    std::size_t const pairs = std::size_t(s.rows());
    // NOTE: the router GEMM's workspace comes first, at least its counters long, whatever T: split-K
    // finds its counters zero only where the last launch left them so (a scratch reused by passes of
    // other token counts, as a model's is, would otherwise put them on an earlier pass's logits).
    gemm_workspace_bytes = std::max(gemm_bf16_tn_workspace_bytes(router_arguments(s)), split_k_counter_bytes);
    gemm_workspace = take(gemm_workspace_bytes);
    logits = static_cast<bf16*>(take(std::size_t(s.tokens) * std::size_t(s.experts) * sizeof(bf16)));
    ids = static_cast<std::int32_t*>(take(pairs * 4));
    weights = static_cast<float*>(take(pairs * 4));
    offsets = static_cast<std::int32_t*>(take(std::size_t(s.experts) * 4));
    rows = static_cast<std::int32_t*>(take(pairs * 4));
    x_perm = static_cast<bf16*>(take(pairs * std::size_t(s.hidden) * sizeof(bf16)));
    h = static_cast<bf16*>(take(pairs * std::size_t(s.ffn) * sizeof(bf16)));
    y_perm = static_cast<bf16*>(take(pairs * std::size_t(s.hidden) * sizeof(bf16)));
    grouped_workspace_bytes = std::max(grouped_gemm_bf16_workspace_bytes<true>(gate_up_arguments(s)),
                                       grouped_gemm_bf16_workspace_bytes<false>(down_arguments(s)));
    grouped_workspace = take(grouped_workspace_bytes);
    bytes = used;
  }

  /// The router GEMM: logits = x Wr^T.
  [[nodiscard]] static GemmArguments<plans::Bf16TN> router_arguments(MoeShape const& s, bf16 const* x = nullptr,
                                                                     bf16 const* router = nullptr,
                                                                     bf16* logits = nullptr) {
    GemmArguments<plans::Bf16TN> a;
    a.a = x, a.lda = s.hidden, a.b = router, a.ldb = s.hidden, a.c = logits, a.ldc = s.experts;
    a.m = s.tokens, a.n = s.experts, a.k = s.hidden;
    return a;
  }
  /// The experts' GEMM out = in W_e^T over the rows in expert order (offsets: the experts' ends):
  /// in (T k, K), each expert's weight (N, K), E of them contiguous; out (T k, N), or N / 2 with SwiGLU.
  template <bool SwiGLU>
  [[nodiscard]] static GroupedBf16Arguments<SwiGLU> expert_arguments(MoeShape const& s, bf16 const* in,
                                                                     bf16 const* weights, bf16* out,
                                                                     std::int32_t const* offsets, std::int64_t n,
                                                                     std::int64_t k) {
    GroupedBf16Arguments<SwiGLU> a;
    a.gemm.a = in, a.gemm.lda = k, a.gemm.b = weights, a.gemm.ldb = k, a.gemm.c = out, a.gemm.ldc = SwiGLU ? n / 2 : n;
    a.gemm.m = s.rows(), a.gemm.n = n, a.gemm.k = k;
    a.rows = GroupedRows{.groups = s.experts, .offsets = offsets, .rows = s.rows()};
    a.b_group_stride = n * k;
    return a;
  }
  [[nodiscard]] static GroupedBf16Arguments<true> gate_up_arguments(MoeShape const& s, bf16 const* x_perm = nullptr,
                                                                    bf16 const* gate_up = nullptr, bf16* h = nullptr,
                                                                    std::int32_t const* offsets = nullptr) {
    return expert_arguments<true>(s, x_perm, gate_up, h, offsets, 2 * s.ffn, s.hidden);
  }
  [[nodiscard]] static GroupedBf16Arguments<false> down_arguments(MoeShape const& s, bf16 const* h = nullptr,
                                                                  bf16 const* down = nullptr, bf16* y_perm = nullptr,
                                                                  std::int32_t const* offsets = nullptr) {
    return expert_arguments<false>(s, h, down, y_perm, offsets, s.hidden, s.ffn);
  }
};

/// The scratch bytes moe_layer needs for `s`.
inline std::size_t moe_scratch_bytes(MoeShape const& s) {
  check_moe_shape(s);
  return MoeScratch(nullptr, s).bytes + 256;  // + alignment of the base
}

/// The routing steps alone (1-3 of the file comment): logits, choices, offsets and rows, x in expert order.
inline void moe_dispatch(bf16 const* x, MoeWeights const& w, MoeShape const& s, MoeScratch const& m,
                         cudaStream_t stream) {
  auto router = MoeScratch::router_arguments(s, x, w.router, m.logits);
  router.workspace = m.gemm_workspace, router.workspace_bytes = m.gemm_workspace_bytes;
  run_gemm_bf16_tn(router, stream);
  auto const warps = [](std::int64_t n) { return dim3(unsigned((n + 7) / 8)); };
  route_kernel<<<warps(s.tokens), 256, 0, stream>>>(m.logits, s.experts, s.tokens, s.experts, s.top_k, s.renormalize,
                                                    m.ids, m.weights);
  permute_kernel<<<1, 1024, 0, stream>>>(m.ids, s.rows(), s.experts, m.offsets, m.rows);
  gather_kernel<<<warps(s.rows()), 256, 0, stream>>>(x, m.rows, s.rows(), s.top_k, s.hidden, m.x_perm);
  host::cuda_check(cudaGetLastError(), "moe dispatch launch");
}

/// y (T, H) = the MoE block of x (T, H) (see the file comment). `scratch`: moe_scratch_bytes,
/// zeroed before its first use (the router GEMM's split-K partials; the kernels leave them zeroed).
inline void moe_layer(bf16 const* x, MoeWeights const& w, MoeShape const& s, bf16* y, void* scratch,
                      cudaStream_t stream = nullptr) {
  check_moe_shape(s);
  if (s.tokens == 0) return;
  if (x == nullptr || y == nullptr || scratch == nullptr || w.router == nullptr || w.gate_up == nullptr ||
      w.down == nullptr)
    host::argument_error("moe.pointers", "x, y, the scratch and the three weights are device pointers (one is null)");
  auto const base = (reinterpret_cast<std::uintptr_t>(scratch) + 255) / 256 * 256;
  MoeScratch const m(reinterpret_cast<void*>(base), s);
  moe_dispatch(x, w, s, m, stream);
  auto gate_up = MoeScratch::gate_up_arguments(s, m.x_perm, w.gate_up, m.h, m.offsets);
  gate_up.gemm.workspace = m.grouped_workspace, gate_up.gemm.workspace_bytes = m.grouped_workspace_bytes;
  run_grouped_gemm_bf16<true>(gate_up, stream);
  auto down = MoeScratch::down_arguments(s, m.h, w.down, m.y_perm, m.offsets);
  down.gemm.workspace = m.grouped_workspace, down.gemm.workspace_bytes = m.grouped_workspace_bytes;
  run_grouped_gemm_bf16<false>(down, stream);
  combine_kernel<<<unsigned((s.tokens + 7) / 8), 256, 0, stream>>>(m.y_perm, m.rows, m.weights, s.tokens, s.top_k,
                                                                   s.hidden, y);
  host::cuda_check(cudaGetLastError(), "moe combine launch");
}

}  // namespace cute_cpp::kernels::moe
