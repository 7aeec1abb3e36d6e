// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3/fused_step.cuh: a Qwen3 decoder's decode step for one sequence in one launch. A step
// of a small decoder (the Qwen3-TTS code predictor, Qwen3-0.6B) is ~7 launches a layer of a few
// microseconds each, and launch latency, not the weights' bytes, sets its time. Here one CTA an SM
// runs every layer, its phases separated by grid barriers (sched/grid_barrier.hpp):
//   norm + QKV | attention (q/k norm, RoPE, k/v to the cache, a split of the keys; the last split
//   of a kv head combines them) | O | norm + gate-up + SwiGLU | down
// (a Qwen3-MoE sparse layer: ... | norm + router | the choices, their experts' gate-up + SwiGLU |
// their down rows, weighted).
// Each projection's rows are cut among the CTAs (fused_step_plan.hpp); a producer warp streams the
// CTA's rows of every projection, layer after layer, through a ring of bulk copies into shared
// memory, so the weights (which no phase writes) keep arriving while the consumer warps work or wait
// at a barrier, and issuing a copy never holds up a phase: the first chunks load before the wait for
// the kernel before (PDL), the next ones as the consumers free their stages.
// The numerics are the layered step's: the add + RMSNorm of kernels/gemm/simt_gemv_norm.cuh (x +
// delta rounded to bf16, f32 mean of squares), q/k norm and RoPE of layer_kernels.cuh, f32 dot
// products rounded once to bf16, SwiGLU on the f32 gate and up, and an f32 softmax whose splits
// combine before the one rounding of the attention output.
// Data the kernel writes (activations, the residual stream, the splits' partials) is read with
// ld.global.cg (L2), never through the read-only path.
#include <cute_cpp/arch/barrier.hpp>        // barrier (named)
#include <cute_cpp/arch/copy.hpp>           // cp_async_bulk_global_to_shared
#include <cute_cpp/arch/griddepcontrol.hpp>  // griddepcontrol_*
#include <cute_cpp/arch/mbarrier.hpp>       // mbarrier_*
#include <cute_cpp/epilogue/fusion.hpp>     // SwiGLU
#include <cute_cpp/kernels/gemm/simt_gemv_norm.cuh>  // gemv::block_sum
#include <cute_cpp/sched/grid_barrier.hpp>  // GridBarrier

#include <cuda_bf16.h>

#include <cstdint>

#include "models/qwen3/fused_step_plan.hpp"
#include "models/qwen3/layer_kernels.cuh"  // norm_rope_head, QkNormRopeParams, cache_row

namespace cute_cpp::models {

/// One layer's weights (bf16, as models/qwen3/device_weights.hpp packs them) and its KV cache
/// ([pages, page_size, heads_kv, head_dim]), as the fused step reads them.
struct FusedLayer {
  bf16 const* input_norm = nullptr;
  bf16 const* qkv = nullptr;
  bf16 const* q_norm = nullptr;
  bf16 const* k_norm = nullptr;
  bf16 const* o = nullptr;
  bf16 const* post_norm = nullptr;
  bf16 const* gate_up = nullptr;
  bf16 const* down = nullptr;
  bf16* k_cache = nullptr;
  bf16* v_cache = nullptr;
  /// A sparse layer's router [experts, hidden], its experts' interleaved gate-up weights
  /// [experts, 2 expert_ffn, hidden] and down weights [experts, hidden, expert_ffn] (kernels/moe's
  /// layouts); null router: a dense layer (gate_up, down).
  bf16 const* router = nullptr;
  bf16 const* experts_gate_up = nullptr;
  bf16 const* experts_down = nullptr;
};

/// A step's rows and its token: the caller's device pointers, read when the step runs.
struct FusedStepIo {
  bf16 const* input = nullptr;       ///< [hidden]: the first layer's delta (the residual stream starts as it)
  bf16* residual[2] = {};            ///< the residual stream's two buffers (models/common/residual_stream.cuh)
  bf16* delta = nullptr;             ///< [hidden]: each projection back into the stream (may be input)
  bf16* qkv = nullptr;               ///< [qkv width]
  bf16* ffn_hidden = nullptr;        ///< [ffn]
  bf16 const* final_norm = nullptr;  ///< null: the final RMSNorm is left to the caller
  bf16* normed = nullptr;            ///< [hidden]: the final-normed row, where final_norm is set
  /// The token's place (positions[0], its cache slot) and its multimodal planes (positions +
  /// plane, plane 1 to 3: rope.rope_component's ids).
  std::int32_t const* positions = nullptr;
  std::int32_t const* length = nullptr;       ///< the keys after the step (= positions[0] + 1)
  std::int32_t const* block_table = nullptr;  ///< its row 0: the sequence's pages
};

/// A fused step's launch: the layers, its scratch, RoPE and the cache's geometry (rope.cache, the
/// block table io's, k and v each layer's), and the step's rows (io).
struct FusedStepParams {
  FusedStepShape shape;
  FusedLayer const* layers = nullptr;  ///< device, [shape.layers]
  float eps = 1e-6f;
  float scale_log2 = 0.0f;  ///< the softmax scale times log2(e)
  float* partials = nullptr;      ///< [max_splits, heads_q, head_dim + 2]
  std::uint32_t* arrivals = nullptr;  ///< [heads_kv]: the splits of each kv head that have written their partials
  bf16* attention_out = nullptr;      ///< [heads_q, head_dim]: the splits combined, the O projection's input
  bf16* router_logits = nullptr;  ///< [experts]: a sparse layer's router row
  bf16* expert_h = nullptr;       ///< [top_k, expert_ffn]: its choices' SwiGLU rows
  int max_splits = 1;
  QkNormRopeParams rope;
  GridBarrier barrier;
  FusedStepIo io;
};

namespace fused_step {

/// The weight ring: `stages` chunk buffers, their full barriers (the producer's copies landed) and
/// empty barriers (the consumers read them); `routed` completes once a sparse layer's choices
/// (`choice`, shared memory) are known, for the producer to load its experts. `consumed` counts the
/// chunks the consumers took (the same in every consumer thread).
struct Ring {
  unsigned char* chunks = nullptr;
  std::uint64_t* full = nullptr;
  std::uint64_t* empty = nullptr;
  std::uint64_t* routed = nullptr;
  std::int32_t const* choice = nullptr;
  int consumed = 0;
};

/// The consumer warps' barrier (named barrier 1): the producer warp never waits at it.
__device__ __forceinline__ void sync_consumers() { arch::barrier(1, threads); }

/// Where the chunk of projection `proj` that starts at `row` of run `run` lies in global memory.
__device__ __forceinline__ bf16 const* chunk_source(FusedStepShape const& s, FusedLayer const& w, Projection proj,
                                                    std::int32_t const* choice, int run, int row) {
  std::int64_t const r = row;
  switch (proj) {
    case Projection::qkv: return w.qkv + r * s.hidden;
    case Projection::o: return w.o + r * s.heads_q * s.head_dim;
    case Projection::gate_up: return w.gate_up + r * s.hidden;
    case Projection::down: return w.down + r * s.ffn;
    case Projection::router: return w.router + r * s.hidden;
    case Projection::expert_gate_up: {
      int const part = 2 * s.expert_ffn;
      return w.experts_gate_up + (std::int64_t(choice[row / part]) * part + row % part) * s.hidden;
    }
    default: return w.experts_down + (std::int64_t(choice[run]) * s.hidden + r) * s.expert_ffn;
  }
}

/// The producer (one thread): every chunk of the CTA's rows of every projection of every layer, in
/// the consumers' order, each into the next stage once the consumers have freed it; a sparse layer's
/// experts once its choices are known.
__device__ inline void produce(FusedStepParams const& p, Ring const& ring) {
  int issued = 0, routed = 0;  // chunks issued; sparse layers whose choices were waited for
  for (int layer = 0; layer < p.shape.layers; ++layer) {
    FusedLayer const& w = p.layers[layer];
    bool const sparse = w.router != nullptr;
    for (int index = 0; index < layer_projections(sparse); ++index) {
      Projection const proj = layer_projection(sparse, index);
      Matrix const m = matrix(p.shape, proj);
      Rows const rows = slice(m, int(blockIdx.x), int(gridDim.x));
      if (proj == Projection::expert_gate_up)  // once a sparse layer, rows here or not: the phases stay in step
        arch::mbarrier_wait(ring.routed, std::uint32_t(routed++) & 1u);
      for (int run = 0; run < m.runs; ++run)
        for (int row = rows.begin, end; row < rows.end; row = end, ++issued) {
          end = chunk_end(m, row, rows.end);
          auto const bytes = std::uint32_t(end - row) * std::uint32_t(m.k) * 2u;
          int const stage = issued % stages;
          if (issued >= stages) arch::mbarrier_wait(&ring.empty[stage], std::uint32_t(issued / stages - 1) & 1u);
          arch::mbarrier_arrive_and_expect_tx(&ring.full[stage], bytes);
          arch::cp_async_bulk_global_to_shared(ring.chunks + std::int64_t(stage) * chunk_bytes,
                                               chunk_source(p.shape, w, proj, ring.choice, run, row), bytes,
                                               &ring.full[stage]);
        }
    }
  }
}

static_assert(threads == kernels::gemv::threads, "the fused step's norm sums its warps as the GEMV's block_sum does");

/// act = rmsnorm(x + delta) * weight (k elements, bf16, shared memory), as kernels/gemm/
/// simt_gemv_norm.cuh's normed rows; x + delta also to x_out where given (one CTA). x null: delta
/// alone (the stream's first value). The weight loads with the rows, not after the sum.
__device__ __forceinline__ void norm_row(bf16 const* x, bf16 const* delta, bf16 const* __restrict__ weight, int k,
                                         float eps, bf16* x_out, bf16* act, float (&scratch)[warps]) {
  constexpr int per_thread = max_width / 8 / threads;  // 16-byte vectors a thread holds at most
  auto* const row = reinterpret_cast<uint4*>(act);
  int const vectors = k / 8;
  uint4 w[per_thread];
#pragma unroll
  for (int i = 0; i < per_thread; ++i)
    if (int const v = int(threadIdx.x) + i * threads; v < vectors)
      w[i] = __ldg(reinterpret_cast<uint4 const*>(weight) + v);
  float squares = 0.0f;
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    int const v = int(threadIdx.x) + i * threads;
    if (v >= vectors) break;
    uint4 const d = __ldcg(reinterpret_cast<uint4 const*>(delta) + v);
    uint4 sum = d;
    if (x != nullptr) {
      uint4 const r = __ldcg(reinterpret_cast<uint4 const*>(x) + v);
      auto* const s2 = reinterpret_cast<__nv_bfloat162*>(&sum);
      auto const* d2 = reinterpret_cast<__nv_bfloat162 const*>(&d);
      auto const* r2 = reinterpret_cast<__nv_bfloat162 const*>(&r);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        float2 const a = __bfloat1622float2(d2[e]), b = __bfloat1622float2(r2[e]);
        s2[e] = __floats2bfloat162_rn(a.x + b.x, a.y + b.y);
      }
    }
    if (x_out != nullptr) reinterpret_cast<uint4*>(x_out)[v] = sum;
    row[v] = sum;
    auto const* s2 = reinterpret_cast<__nv_bfloat162 const*>(&sum);
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float2 const f = __bfloat1622float2(s2[e]);
      squares = fmaf(f.x, f.x, squares);
      squares = fmaf(f.y, f.y, squares);
    }
  }
  float const sum = kernels::gemv::block_sum(squares, scratch, sync_consumers);
  float const rstd = rsqrtf(__fdividef(sum, float(k)) + eps);
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    int const v = int(threadIdx.x) + i * threads;
    if (v >= vectors) break;
    auto* const s2 = reinterpret_cast<__nv_bfloat162*>(&row[v]);
    auto const* w2 = reinterpret_cast<__nv_bfloat162 const*>(&w[i]);
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float2 const f = __bfloat1622float2(s2[e]), g = __bfloat1622float2(w2[e]);
      s2[e] = __floats2bfloat162_rn(f.x * g.x * rstd, f.y * g.y * rstd);
    }
  }
  sync_consumers();
}

/// act = `k` elements of `src` (written by this kernel's previous phase).
__device__ __forceinline__ void load_row(bf16 const* src, int k, bf16* act) {
  for (int v = int(threadIdx.x); v < k / 8; v += threads)
    reinterpret_cast<uint4*>(act)[v] = __ldcg(reinterpret_cast<uint4 const*>(src) + v);
  sync_consumers();
}

/// A chunk's `n` rows of k against act: warps split rows (per_row warps a row where the rows are
/// fewer than the warps); each warp's sum to part[row * per_row + its part].
__device__ __forceinline__ void dot_rows(unsigned char const* chunk, bf16 const* act, int k, int n, float* part) {
  int per_row = 1;
  while (per_row * 2 * n <= warps) per_row *= 2;
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  auto const* a = reinterpret_cast<uint4 const*>(act);
  for (int r = warp / per_row; r < n; r += warps / per_row) {
    auto const* w = reinterpret_cast<uint4 const*>(chunk + std::int64_t(r) * k * 2);
    float acc = 0.0f;
    for (int v = (warp % per_row) * 32 + lane; v < k / 8; v += per_row * 32)
      kernels::gemv::fma_vector(w[v], a[v], acc);  // the skinny kernels' 16-byte bf16 dot step
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    if (lane == 0) part[r * per_row + warp % per_row] = acc;
  }
}

/// out = the CTA's rows of act W^T for projection `proj` of the ring's current layer, chunk by chunk
/// from the ring. Gated (gate_up, expert_gate_up): SwiGLU of each gate/up pair, out half as wide.
/// expert_down: run c against the choice's h row (act + c expert_ffn), the runs' rows summed in
/// choice order as choice_weight[c] * bf16(row), as kernels/moe's decode path sums them.
template <bool Gated>
__device__ void project(FusedStepParams const& p, Ring& ring, Projection proj, bf16 const* act, float* row_out,
                        float (&partial)[2][max_chunk_rows], bf16* out, float const* choice_weight = nullptr) {
  Matrix const m = matrix(p.shape, proj);
  Rows const rows = slice(m, int(blockIdx.x), int(gridDim.x));
  bool const weighted = proj == Projection::expert_down;
  if (weighted)
    for (int j = int(threadIdx.x); j < rows.size(); j += threads) row_out[j] = 0.0f;
  for (int run = 0; run < m.runs; ++run) {
    bf16 const* const a = act + (weighted ? run * p.shape.expert_ffn : 0);
    for (int row = rows.begin, end; row < rows.end; row = end) {
      end = chunk_end(m, row, rows.end);
      int const n = end - row;
      int const stage = ring.consumed % stages;
      arch::mbarrier_wait(&ring.full[stage], std::uint32_t(ring.consumed / stages) & 1u);
      float* const part = partial[ring.consumed & 1];
      dot_rows(ring.chunks + std::int64_t(stage) * chunk_bytes, a, m.k, n, part);
      sync_consumers();  // the stage is read: it may load again; the parts are written
      if (threadIdx.x == 0) arch::mbarrier_arrive(&ring.empty[stage]);
      if (int(threadIdx.x) < n) {
        int per_row = 1;
        while (per_row * 2 * n <= warps) per_row *= 2;
        float sum = 0.0f;
        for (int i = 0; i < per_row; ++i) sum += part[int(threadIdx.x) * per_row + i];
        float& slot = row_out[row - rows.begin + int(threadIdx.x)];
        slot = weighted ? fmaf(choice_weight[run], __bfloat162float(__float2bfloat16_rn(sum)), slot) : sum;
      }
      ++ring.consumed;
    }
  }
  sync_consumers();
  if constexpr (Gated) {
    epilogue::SwiGLU const op{};
    for (int j = int(threadIdx.x); j < rows.size() / 2; j += threads) {
      int const gate = j / 8 * 16 + j % 8;
      out[rows.begin / 2 + j] = __float2bfloat16(op(row_out[gate], row_out[gate + 8]));
    }
  } else {
    for (int j = int(threadIdx.x); j < rows.size(); j += threads) out[rows.begin + j] = __float2bfloat16(row_out[j]);
  }
}

}  // namespace fused_step
}  // namespace cute_cpp::models
