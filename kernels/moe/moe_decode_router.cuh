// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The MoE block's router for a decode step's few tokens in one launch (moe_layer takes it up to
// moe_decode_tokens on one device), where the step ran the router GEMM and then route_kernel (and,
// before them, an add + RMSNorm kernel: moe_layer_normed folds that in too):
//   1. each CTA stages the step's rows in its shared memory, normed there when given the norm (as
//      kernels/gemm/simt_gemv_norm.cuh's kernel norms them: every CTA the same bits); CTA 0 also
//      writes x + residual (the residual stream's next value) and the normed rows (the experts' x);
//   2. warp w of CTA b computes expert 8 b + w's logit for every row (its router row read once, a
//      lane's first 8 vectors loaded before the wait for the kernel before): bf16 for softmax
//      routing (as the router GEMM's Bf16TN output), f32 for sigmoid routing;
//   3. the last CTA to finish (each CTA one atomicInc on a counter that wraps to zero at the last)
//      routes the tokens, a warp a token, with route_kernel's and route_sigmoid_kernel's bodies.
// Deterministic: each logit is one warp's sum in a fixed order, and the routing reads only them.
#include <cute_cpp/kernels/gemm/simt_gemv_norm.cuh>  // RmsNormedRows, gemv::normed_rows
#include <cute_cpp/kernels/moe/moe_decode.cuh>       // decode::warp_sum
#include <cute_cpp/kernels/moe/moe_route.cuh>        // softmax_route, sigmoid_route
#include <cute_cpp/kernels/moe/moe_shape.hpp>  // moe_decode_router_takes, moe_decode_router_smem

#include <cute_cpp/arch/griddepcontrol.hpp>
#include <cute_cpp/host/arguments.hpp>  // ByteRange, check_disjoint
#include <cute_cpp/host/launch.hpp>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels::moe {

/// The decode router's operands: the rows (T, H) and their norm, the router weight (E, H), the
/// logits (T, E) it writes (bf16 for softmax routing, f32 for sigmoid), the (T, k) choices and
/// weights, and `arrivals`, a counter that is zero before the launch and after it.
struct MoeDecodeRouter {
  RmsNormedRows<bf16> norm;  ///< norm.x the rows; with norm.weight, the add + RMSNorm before the router
  bf16* normed = nullptr;    ///< (T, H) the normed rows (CTA 0 writes them); null without a norm
  bf16 const* router = nullptr;
  bf16* logits = nullptr;
  float* logits_f32 = nullptr;
  std::int32_t* ids = nullptr;
  float* weights = nullptr;
  std::int32_t* shared_rows = nullptr;  ///< sigmoid routing's shared-expert group: T, or null
  unsigned* arrivals = nullptr;
  std::int64_t tokens = 0, hidden = 0;
  int experts = 0, top_k = 0;
  bool renormalize = true;  ///< softmax routing's
  SigmoidRouting sigmoid{};
};

namespace decode_router {
/// The normed GEMV's CTA (its norm of the rows is this kernel's) and 16-byte vectors.
inline constexpr int threads = gemv::threads, warps = gemv::warps, vector = gemv::vector;
/// A lane's router-row vectors in flight at once (all of H = 2048's).
inline constexpr int round = 8;

/// The T rows into `rows` (shared memory): normed with norm.weight where given (CTA 0 also writing
/// x + residual and the normed rows), else copied.
__device__ __forceinline__ void stage_rows(MoeDecodeRouter const& p, bf16* rows) {
  int const t = int(p.tokens);
  std::int64_t const vectors = p.tokens * p.hidden / vector;
  if (p.norm.weight != nullptr) {
    bool const write_residual = blockIdx.x == 0 && p.norm.residual_out != nullptr;
    gemv::normed_rows<moe_decode_tokens>(p.norm, t, p.hidden, rows, write_residual);
    if (blockIdx.x == 0)
      for (std::int64_t v = threadIdx.x; v < vectors; v += threads)
        reinterpret_cast<uint4*>(p.normed)[v] = reinterpret_cast<uint4 const*>(rows)[v];
  } else {
    for (std::int64_t v = threadIdx.x; v < vectors; v += threads)
      reinterpret_cast<uint4*>(rows)[v] = __ldg(reinterpret_cast<uint4 const*>(p.norm.x) + v);
    __syncthreads();
  }
}

/// acc[s] += this lane's share of row `w` (H) . staged row s, for s < T: the lane's vectors v0 + 32 u.
__device__ __forceinline__ void dot_round(uint4 const (&w)[round], bf16 const* rows, std::int64_t hidden, int tokens,
                                          std::int64_t v0, std::int64_t vectors, float (&acc)[8]) {
#pragma unroll
  for (int u = 0; u < round; ++u) {
    std::int64_t const v = v0 + 32 * u;
    if (v >= vectors) break;
    float f[vector];
    gemv::widen<bf16>(w[u], f);
#pragma unroll
    for (int s = 0; s < 8; ++s) {
      if (s >= tokens) break;
      float g[vector];
      gemv::widen<bf16>(reinterpret_cast<uint4 const*>(rows + s * hidden)[v], g);
#pragma unroll
      for (int e = 0; e < vector; ++e) acc[s] = fmaf(f[e], g[e], acc[s]);
    }
  }
}

/// The lane's vectors v0 + 32 u of router row `row` (those before `vectors`).
__device__ __forceinline__ void load_round(bf16 const* row, std::int64_t v0, std::int64_t vectors, uint4 (&w)[round]) {
#pragma unroll
  for (int u = 0; u < round; ++u)
    if (v0 + 32 * u < vectors) w[u] = __ldg(reinterpret_cast<uint4 const*>(row) + v0 + 32 * u);
}

/// Whether this CTA is the grid's last to arrive (its logits and every other CTA's visible to it).
/// The count wraps to zero at the last arrival (atomicInc), ready for the next launch.
__device__ __forceinline__ bool last_to_arrive(unsigned* arrivals) {
  __shared__ bool last;
  __threadfence();  // this thread's logits before the CTA's arrival
  __syncthreads();
  if (threadIdx.x == 0) last = atomicInc(arrivals, gridDim.x - 1) == gridDim.x - 1;
  __syncthreads();
  if (last) __threadfence();  // the other CTAs' logits, read after their arrivals
  return last;
}
}  // namespace decode_router

/// Steps 1-3 of the file comment: a grid of ceil(E / 8) CTAs, the staged rows in dynamic shared memory.
template <MoeRouting Routing>
__global__ void __launch_bounds__(decode_router::threads) moe_decode_router_kernel(MoeDecodeRouter const p) {
  using namespace decode_router;
  arch::griddepcontrol_launch_dependents();
  extern __shared__ uint4 router_smem[];
  bf16* const rows = reinterpret_cast<bf16*>(router_smem);
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32, tokens = int(p.tokens);
  int const expert = int(blockIdx.x) * warps + warp;
  std::int64_t const vectors = p.hidden / vector;
  bf16 const* const row = p.router + std::int64_t(expert < p.experts ? expert : 0) * p.hidden;
  uint4 w[round];
  // The router's first round loads before the wait for the kernel before (no kernel of a step writes
  // a layer's weights, as the router GEMM's IndependentOperand::B says) and stays in flight while
  // the rows are staged.
  if (expert < p.experts) load_round(row, lane, vectors, w);
  arch::griddepcontrol_wait();  // x and the residual are the kernels' before
  stage_rows(p, rows);
  if (expert < p.experts) {
    float acc[8] = {};
    for (std::int64_t v0 = lane;; ) {
      dot_round(w, rows, p.hidden, tokens, v0, vectors, acc);
      v0 += 32 * round;
      if (v0 >= vectors) break;
      load_round(row, v0, vectors, w);
    }
#pragma unroll
    for (int s = 0; s < 8; ++s) {
      if (s >= tokens) break;
      float const logit = decode::warp_sum(acc[s]);
      if (lane != 0) continue;
      if constexpr (Routing == MoeRouting::softmax) p.logits[s * p.experts + expert] = __float2bfloat16_rn(logit);
      else p.logits_f32[s * p.experts + expert] = logit;
    }
  }
  if (!last_to_arrive(p.arrivals)) return;
  if (warp >= tokens) return;
  int id = 0;
  float weight = 0.0f;
  if constexpr (Routing == MoeRouting::softmax) {
    bf16 const* const logits = p.logits + std::int64_t(warp) * p.experts;
    softmax_route([&](int e) { return __bfloat162float(__ldcg(logits + e)); }, lane, p.experts, p.top_k,
                  p.renormalize, id, weight);
  } else {
    __shared__ float staged[warps][max_experts];
    float const* const logits = p.logits_f32 + std::int64_t(warp) * p.experts;
    sigmoid_route([&](int e) { return __ldcg(logits + e); }, lane, p.experts, p.top_k, p.sigmoid, staged[warp], id,
                  weight);
    if (p.shared_rows != nullptr && threadIdx.x == 0) p.shared_rows[0] = std::int32_t(p.tokens);
  }
  if (lane < p.top_k) {
    p.ids[warp * p.top_k + lane] = id;
    p.weights[warp * p.top_k + lane] = weight;
  }
}

static_assert(moe_decode_router_smem_limit == normed_rows_smem_limit,
              "cute-cpp: moe.decode-router: the staged rows' limit is the normed GEMV's");

/// Rule moe.norm for moe_layer_normed's norm: x and the gain given and 16-byte aligned (as the
/// residual and its output, where given); rule moe.aliasing: `normed` and the residual's output
/// overlap neither an input (x, the residual, the gain) nor each other.
inline void check_moe_norm(RmsNormedRows<bf16> const& norm, bf16 const* normed, MoeShape const& s) {
  auto const aligned = [](void const* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
  if (norm.x == nullptr || norm.weight == nullptr || !aligned(norm.x) || !aligned(norm.weight) ||
      !aligned(norm.residual) || !aligned(norm.residual_out))
    detail::moe_fail("cute-cpp [moe.norm]: the norm's x and gain are device pointers, and they, the residual and "
                     "its output 16-byte aligned",
                     norm.x == nullptr || norm.weight == nullptr ? "a null x or gain" : "a pointer not 16-byte aligned");
  std::size_t const rows = moe_decode_router_smem(s), gain = std::size_t(s.hidden) * sizeof(bf16);
  host::ByteRange const inputs[] = {{"x", norm.x, rows}, {"residual", norm.residual, rows}, {"gain", norm.weight, gain}};
  host::ByteRange const normed_rows{"normed", normed, rows};
  host::ByteRange const residual_out{"residual_out", norm.residual_out, norm.residual_out != nullptr ? rows : 0};
  host::ByteRange const outputs[] = {residual_out};
  host::check_disjoint("moe", normed_rows, inputs);
  host::check_disjoint("moe", residual_out, inputs);
  host::check_disjoint("moe", normed_rows, outputs);
}

/// Launches moe_decode_router_kernel for `p` (shape `s`). @pre moe_decode_router_takes(s), and the
/// pointers passed moe_layer's checks.
inline void run_moe_decode_router(MoeDecodeRouter const& p, MoeShape const& s, cudaStream_t stream) {
  host::LaunchConfig config;
  config.grid = dim3(unsigned((s.experts + decode_router::warps - 1) / decode_router::warps));
  config.block = dim3(decode_router::threads);
  config.smem_bytes = moe_decode_router_smem(s);
  config.stream = stream;
  if (s.routing == MoeRouting::softmax)
    host::launch(&moe_decode_router_kernel<MoeRouting::softmax>, "moe_decode_router", config, p);
  else
    host::launch(&moe_decode_router_kernel<MoeRouting::sigmoid>, "moe_decode_router", config, p);
}

}  // namespace cute_cpp::kernels::moe
