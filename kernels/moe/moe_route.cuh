// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The MoE block's routers (moe.cuh's step 2), a warp per token, lane l holding experts l, l + 32, ...:
// route_kernel (softmax, Qwen3-MoE) and route_sigmoid_kernel (sigmoid scores with a correction bias
// and expert groups, Nemotron-H and DeepSeek-V3). Both choose with warp_top_k: k rounds of a warp
// arg-max in which equal values go to the lower expert. That is the set torch.topk returns on CUDA
// (its radix select keeps the values above the k-th, then the ones equal to it in index order);
// the order of the k choices does not matter to the block (the combine sums them).
#include <cute_cpp/arch/griddepcontrol.hpp>  // griddepcontrol_*
#include <cute_cpp/kernels/moe/moe_shape.hpp>

#include <cuda_bf16.h>

#include <cstdint>

namespace cute_cpp::kernels::moe {

/// Every MoE kernel's first step: a decode step's graph may launch it programmatically (PDL), while
/// its predecessor still runs, so it lets its own successor launch and then waits for its
/// predecessor's memory before touching global memory (the contract of host/graph_pdl.hpp).
__device__ __forceinline__ void pdl_prologue() {
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
}

inline constexpr int route_per_lane = max_experts / 32;

/// k rounds of a warp arg-max over v (this lane's v[i] is expert lane + 32 i): each round the
/// largest value above `floor` (equal values: the lower expert), which then becomes `taken`; every
/// lane calls chosen(j, value, expert) for round j.
template <class Chosen>
__device__ __forceinline__ void warp_top_k(float (&v)[route_per_lane], int lane, int experts, int top_k, float floor,
                                           float taken, Chosen&& chosen) {
  for (int j = 0; j < top_k; ++j) {
    float best = floor;
    int best_id = experts;
#pragma unroll
    for (int i = 0; i < route_per_lane; ++i)
      if (v[i] > best) best = v[i], best_id = lane + 32 * i;  // lanes see their experts in increasing order
#pragma unroll
    for (int d = 16; d > 0; d /= 2) {
      float const other = __shfl_xor_sync(~0u, best, d);
      int const other_id = __shfl_xor_sync(~0u, best_id, d);
      if (other > best || (other == best && other_id < best_id)) best = other, best_id = other_id;
    }
#pragma unroll
    for (int i = 0; i < route_per_lane; ++i)
      if (lane + 32 * i == best_id) v[i] = taken;
    // NOTE: no value above the floor (NaN logits) leaves best_id at E: an expert of the model instead,
    // so no kernel after indexes past the weights (the token's output is then NaN, not a fault).
    chosen(j, best, min(best_id, experts - 1));
  }
}

/// A token's softmax routing in one warp: `logit(e)` its router logit for expert e (read for
/// e < experts), the softmax, the top k (ties: the lower expert); lane j < top_k gets choice j in
/// `id` and its probability (renormalized over the k where asked) in `weight`. Lane l holds experts
/// l, l + 32, ... (route_kernel's body; a fused decode step routes with it too).
template <class Logit>
__device__ __forceinline__ void softmax_route(Logit const& logit, int lane, int experts, int top_k, bool renormalize,
                                              int& id, float& weight) {
  constexpr int per_lane = route_per_lane;
  float v[per_lane];
  float top = -INFINITY;
#pragma unroll
  for (int i = 0; i < per_lane; ++i) {
    int const e = lane + 32 * i;
    v[i] = e < experts ? logit(e) : -INFINITY;
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
  // -2: below every probability and -1 (no expert); -1.5: taken.
  // NOTE: the sum before this lane's pick: in this order the kernel's SASS is what it was before
  // warp_top_k was shared, byte for byte.
  warp_top_k(v, lane, experts, top_k, -2.0f, -1.5f, [&](int j, float best, int best_id) {
    chosen_sum += best / sum;
    if (lane == j) mine = best / sum, mine_id = best_id;
  });
  id = mine_id;
  weight = renormalize ? mine / chosen_sum : mine;
}

/// One warp per token: softmax_route over its logits row.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void __launch_bounds__(256) route_kernel(bf16 const* logits, std::int64_t ld, std::int64_t tokens, int experts,
                                                    int top_k, bool renormalize, std::int32_t* ids, float* weights) {
  pdl_prologue();
  std::int64_t const token = std::int64_t(blockIdx.x) * 8 + threadIdx.x / 32;
  int const lane = int(threadIdx.x % 32);
  if (token >= tokens) return;
  int id = 0;
  float weight = 0.0f;
  softmax_route([&](int e) { return __bfloat162float(logits[token * ld + e]); }, lane, experts, top_k, renormalize, id,
                weight);
  if (lane < top_k) {
    ids[token * top_k + lane] = id;
    weights[token * top_k + lane] = weight;
  }
}

/// The sigmoid router's settings, as route_sigmoid_kernel takes them (MoeShape's and the bias).
struct SigmoidRouting {
  float const* bias = nullptr;  ///< (E) f32, or null (zeros)
  int groups = 1, top_groups = 1;
  bool renormalize = true;
  float scaling = 1.0f;
};

/// Sets v (the choice scores) to -inf outside the top_groups best of `groups` groups of contiguous
/// experts, a group's score the sum of its two best choice scores (equal scores: the lower group).
/// `staged`: the warp's max_experts floats of shared memory.
__device__ __forceinline__ void keep_best_groups(float (&v)[route_per_lane], int experts, int groups, int top_groups,
                                                 float* staged) {
  int const lane = int(threadIdx.x % 32), size = experts / groups;
#pragma unroll
  for (int i = 0; i < route_per_lane; ++i)
    if (lane + 32 * i < experts) staged[lane + 32 * i] = v[i];
  __syncwarp();
  float score = -INFINITY;
  if (lane < groups) {
    float a = -INFINITY, b = -INFINITY;  // the group's best two
    for (int e = lane * size; e < (lane + 1) * size; ++e) {
      float const c = staged[e];
      if (c > a) b = a, a = c;
      else if (c > b) b = c;
    }
    score = a + b;
  }
  unsigned kept = 0;
  bool taken = lane >= groups;
  for (int r = 0; r < top_groups; ++r) {
    float best = taken ? -INFINITY : score;
    int best_id = taken ? 32 : lane;
#pragma unroll
    for (int d = 16; d > 0; d /= 2) {
      float const other = __shfl_xor_sync(~0u, best, d);
      int const other_id = __shfl_xor_sync(~0u, best_id, d);
      if (other > best || (other == best && other_id < best_id)) best = other, best_id = other_id;
    }
    if (best_id < 32) kept |= 1u << best_id;
    taken = taken || lane == best_id;
  }
#pragma unroll
  for (int i = 0; i < route_per_lane; ++i)
    if (lane + 32 * i < experts && ((kept >> ((lane + 32 * i) / size)) & 1u) == 0) v[i] = -INFINITY;
}

/// A token's sigmoid routing in one warp: `logit(e)` its f32 router logit for expert e (read for
/// e < experts); scores sigmoid(logit); the top k of score + bias among the experts of the best
/// groups (warp_top_k; ties: the lower expert); lane j < top_k gets choice j in `id` and its
/// weight, its score, divided by the k scores' sum + 1e-20 when renormalizing, times the scaling.
/// `staged`: the warp's max_experts floats of shared memory (expert groups only).
template <class Logit>
__device__ __forceinline__ void sigmoid_route(Logit const& logit, int lane, int experts, int top_k,
                                              SigmoidRouting const& routing, float* staged, int& id, float& weight) {
  float score[route_per_lane], v[route_per_lane];
#pragma unroll
  for (int i = 0; i < route_per_lane; ++i) {
    int const e = lane + 32 * i;
    // NOTE: expf, not __expf: the choice compares scores that may differ in their last bits.
    score[i] = e < experts ? 1.0f / (1.0f + expf(-logit(e))) : 0.0f;
    v[i] = e < experts ? score[i] + (routing.bias != nullptr ? routing.bias[e] : 0.0f) : -INFINITY;
  }
  if (routing.groups > 1) keep_best_groups(v, experts, routing.groups, routing.top_groups, staged);
  float mine = 0, chosen_sum = 0;
  int mine_id = 0;
  // -inf: below every kept choice score (finite), and what masked and taken experts hold.
  warp_top_k(v, lane, experts, top_k, -INFINITY, -INFINITY, [&](int j, float, int best_id) {
    float s = 0;  // the chosen expert's unbiased score, from its lane
#pragma unroll
    for (int i = 0; i < route_per_lane; ++i)
      if (lane + 32 * i == best_id) s = score[i];
    s = __shfl_sync(~0u, s, best_id % 32);
    if (lane == j) mine = s, mine_id = best_id;
    chosen_sum += s;
  });
  id = mine_id;
  weight = (routing.renormalize ? mine / (chosen_sum + 1e-20f) : mine) * routing.scaling;
}

/// One warp per token: sigmoid_route over its f32 logits row. Block 0 also writes shared_rows[0] = T
/// (the shared expert's one group, all rows), when given.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void __launch_bounds__(256) route_sigmoid_kernel(float const* logits, std::int64_t ld, std::int64_t tokens,
                                                            int experts, int top_k, SigmoidRouting const routing,
                                                            std::int32_t* ids, float* weights,
                                                            std::int32_t* shared_rows) {
  __shared__ float staged[8][max_experts];
  pdl_prologue();
  if (shared_rows != nullptr && blockIdx.x == 0 && threadIdx.x == 0) shared_rows[0] = std::int32_t(tokens);
  std::int64_t const token = std::int64_t(blockIdx.x) * 8 + threadIdx.x / 32;
  int const lane = int(threadIdx.x % 32);
  if (token >= tokens) return;
  int id = 0;
  float weight = 0.0f;
  sigmoid_route([&](int e) { return logits[token * ld + e]; }, lane, experts, top_k, routing, staged[threadIdx.x / 32],
                id, weight);
  if (lane < top_k) {
    ids[token * top_k + lane] = id;
    weights[token * top_k + lane] = weight;
  }
}

}  // namespace cute_cpp::kernels::moe
