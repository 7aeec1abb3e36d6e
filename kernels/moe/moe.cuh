// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// A mixture-of-experts FFN block (Qwen3-MoE, Mixtral; Nemotron-H, DeepSeek-V3's routed and shared
// experts) on the Hopper GEMMs, with the host reading nothing that depends on the tokens (one stream
// of launches, CUDA-graph friendly):
//   1. router logits = x Wr^T (the dense GEMM), (T, E): bf16 for softmax routing, f32 for sigmoid;
//   2. the router (moe_route.cuh): per token the top k experts and their weights, by softmax
//      (Qwen3) or by sigmoid scores with a correction bias and expert groups (Nemotron-H); a decode
//      step's few tokens on one device take steps 1-2 in one launch (moe_decode_router.cuh), and
//      the experts from the choices (moe_decode.cuh) in place of steps 3-7;
//   3. moe_permute: each expert's rows (how many tokens chose it, the grouped GEMM's offsets) and
//      each (token, choice)'s row in expert order; moe_gather copies x's rows there;
//   4. the experts' first projection, one grouped GEMM: SwiGLU against each expert's fused weight
//      (2F, H), gate and up rows interleaved in blocks of 8 (pack_gate_up), or the squared ReLU
//      against each expert's up weight (F, H);
//   5. the experts' down projection, a grouped GEMM against each expert's (H, F) weight;
//   6. the shared expert, when there is one: ReLU^2 on the dense GEMMs (up, the squared ReLU in
//      place, down: shared_expert_dense), SwiGLU as steps 4 and 5 on x itself, one group of T rows;
//   7. moe_combine: y[t] = (the shared expert's row +) sum over its k choices of weight * the
//      choice's row (f32 sum, bf16 out).
// Within an expert, rows are in no fixed order (step 3 takes slots with atomics); each row's
// result does not depend on the order, so y is deterministic.
// Expert parallelism (MoeShape::local_experts, a tensor-parallel rank): after step 2 each choice of
// another rank's expert takes the foreign group (id local_experts); step 3 sorts it after the local
// experts' rows, steps 4-5 take only the local experts' groups, and a rank's combine (or decode path)
// skips it, so a rank computes only its own choices.
// Constraints: [moe.shape], [moe.routing], [moe.pointers] (moe_shape.hpp).
#include <cute_cpp/kernels/gemm/grouped_gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>
#include <cute_cpp/kernels/moe/moe_decode.cuh>
#include <cute_cpp/kernels/moe/moe_decode_router.cuh>
#include <cute_cpp/kernels/moe/moe_route.cuh>
#include <cute_cpp/kernels/moe/moe_scratch.cuh>
#include <cute_cpp/kernels/moe/moe_shape.hpp>

#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/launch.hpp>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cute_cpp::kernels::moe {

/// Expert parallelism (MoeShape::local_experts): each choice of an expert in [begin, begin + count)
/// becomes its local id; a choice of another rank's expert becomes the foreign group `count`
/// (MoeShape::foreign_group), which the permute sorts after the local experts' rows, no expert's
/// GEMM computes, and the combine and the decode path skip. Its weight is zeroed as well, so that
/// whatever reads the weights alone (a routing statistic) sees it add nothing.
template <int = 0>
__global__ void __launch_bounds__(256) mask_experts_kernel(std::int32_t* ids, float* weights, std::int64_t pairs,
                                                           int begin, int count) {
  std::int64_t const i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  int const local = ids[i] - begin;
  bool const here = local >= 0 && local < count;
  ids[i] = here ? local : count;
  if (!here) weights[i] = 0.0f;
}

/// One CTA of 1024 threads: how many (token, choice) pairs chose each expert, the experts' offsets
/// (ends, the grouped GEMM's), and each pair's row in expert order.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void __launch_bounds__(1024) permute_kernel(std::int32_t const* ids, std::int64_t pairs, int experts,
                                                       std::int32_t* offsets, std::int32_t* rows) {
  pdl_prologue();
  __shared__ std::int32_t count[max_experts];
  __shared__ std::int32_t cursor[max_experts];
  for (int e = int(threadIdx.x); e < experts; e += int(blockDim.x)) count[e] = 0;
  __syncthreads();
  for (std::int64_t i = threadIdx.x; i < pairs; i += blockDim.x) atomicAdd(&count[ids[i]], 1);
  __syncthreads();
  // The experts' ends: an inclusive scan of the counts, a warp per 32 experts (thread e holds expert
  // e; the launch's 1024 threads cover max_experts), then over the warps' totals.
  // NOTE: thread 0 walked the E experts alone until here: a chain of E dependent shared-memory
  // round trips (E = 128: some 2 us at batch 1, once per MoE layer); the sums are the same.
  constexpr int scan_warps = max_experts / 32;
  __shared__ std::int32_t warp_total[scan_warps];
  int const e = int(threadIdx.x), lane = e % 32, warp = e / 32;
  std::int32_t end = 0;
  if (warp < scan_warps) {
    end = e < experts ? count[e] : 0;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      std::int32_t const y = __shfl_up_sync(~0u, end, d);
      if (lane >= d) end += y;
    }
    if (lane == 31) warp_total[warp] = end;
  }
  __syncthreads();
  if (warp < scan_warps && e < experts) {
    for (int w = 0; w < warp; ++w) end += warp_total[w];
    cursor[e] = end - count[e];
    offsets[e] = end;
  }
  __syncthreads();
  for (std::int64_t i = threadIdx.x; i < pairs; i += blockDim.x) rows[i] = atomicAdd(&cursor[ids[i]], 1);
}

/// A row kernel's thread (gather, combine; 256 threads a CTA): `row_warps` warps share a row
/// (moe_row_warps), so a CTA takes 8 / row_warps rows; the thread's row, its first 16-byte column
/// and the columns between its own.
struct RowThread {
  std::int64_t row, column, stride;
};
__device__ __forceinline__ RowThread row_thread(int row_warps) {
  int const warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  return {std::int64_t(blockIdx.x) * (8 / row_warps) + warp / row_warps, std::int64_t(warp % row_warps) * 32 + lane,
          std::int64_t(32) * row_warps};
}
/// The CTAs of a row kernel over `rows` rows, `row_warps` warps a row.
inline dim3 row_grid(std::int64_t rows, int row_warps) { return dim3(unsigned((rows * row_warps + 7) / 8)); }

/// x_perm[rows[i]] = x[i / k], 16 bytes a lane, row_warps warps a row.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void gather_kernel(bf16 const* x, std::int32_t const* rows, std::int64_t pairs, int top_k,
                              std::int64_t hidden, bf16* x_perm, int row_warps) {
  pdl_prologue();
  RowThread const p = row_thread(row_warps);
  std::int64_t const i = p.row;
  if (i >= pairs) return;
  auto const* src = reinterpret_cast<uint4 const*>(x + (i / top_k) * hidden);
  auto* dst = reinterpret_cast<uint4*>(x_perm + std::int64_t(rows[i]) * hidden);
  for (std::int64_t c = p.column; c < hidden / 8; c += p.stride) dst[c] = src[c];
}

/// acc += the token's k choices' columns 8c .. 8c + 7 of y_perm, each times its weight (f32). With
/// SkipForeign (a rank's combine), a choice whose id is the foreign group `foreign` is skipped: no
/// GEMM wrote its row of y_perm, which holds whatever the scratch held (NaN times 0 is NaN).
template <bool SkipForeign = false>
__device__ __forceinline__ void accumulate_choices(float (&acc)[8], bf16 const* y_perm, std::int32_t const* rows,
                                                   float const* weights, std::int64_t t, int top_k, std::int64_t hidden,
                                                   std::int64_t c, std::int32_t const* ids = nullptr,
                                                   int foreign = 0) {
  for (int j = 0; j < top_k; ++j) {
    if constexpr (SkipForeign) {
      if (ids[t * top_k + j] == foreign) continue;
    }
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
}

/// Eight f32 values as eight bf16 (round to nearest) in 16 bytes.
__device__ __forceinline__ uint4 pack_bf16x8(float const (&acc)[8]) {
  uint4 out;
  auto* o = reinterpret_cast<__nv_bfloat162*>(&out);
#pragma unroll
  for (int e = 0; e < 4; ++e) o[e] = __floats2bfloat162_rn(acc[2 * e], acc[2 * e + 1]);
  return out;
}

/// y[t] = sum_j weights[t, j] * y_perm[rows[t k + j]], f32 sums, 8 columns a lane, row_warps warps a token.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void combine_kernel(bf16 const* y_perm, std::int32_t const* rows, float const* weights,
                               std::int64_t tokens, int top_k, std::int64_t hidden, bf16* y, int row_warps) {
  pdl_prologue();
  RowThread const p = row_thread(row_warps);
  std::int64_t const t = p.row;
  if (t >= tokens) return;
  for (std::int64_t c = p.column; c < hidden / 8; c += p.stride) {
    float acc[8] = {};
    accumulate_choices(acc, y_perm, rows, weights, t, top_k, hidden, c);
    reinterpret_cast<uint4*>(y + t * hidden)[c] = pack_bf16x8(acc);
  }
}

/// y[t] = shared[t] + sum_j weights[t, j] * y_perm[rows[t k + j]]: combine_kernel with the shared
/// expert's output (T, H) added first, in the same f32 sum.
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void combine_shared_kernel(bf16 const* y_perm, std::int32_t const* rows, float const* weights,
                                      bf16 const* shared, std::int64_t tokens, int top_k, std::int64_t hidden, bf16* y,
                                      int row_warps) {
  pdl_prologue();
  RowThread const p = row_thread(row_warps);
  std::int64_t const t = p.row;
  if (t >= tokens) return;
  for (std::int64_t c = p.column; c < hidden / 8; c += p.stride) {
    uint4 const v = reinterpret_cast<uint4 const*>(shared + t * hidden)[c];
    auto const* h = reinterpret_cast<__nv_bfloat162 const*>(&v);
    float acc[8];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float2 const f = __bfloat1622float2(h[e]);
      acc[2 * e] = f.x, acc[2 * e + 1] = f.y;
    }
    accumulate_choices(acc, y_perm, rows, weights, t, top_k, hidden, c);
    reinterpret_cast<uint4*>(y + t * hidden)[c] = pack_bf16x8(acc);
  }
}

/// combine_kernel on a rank (MoeShape::local_experts): y[t] = (shared[t] when given +) the sum over
/// t's choices of weight * y_perm row, skipping the choices of other ranks' experts (id `foreign`).
/// A kernel of its own, so that the one-device combines stay as they are.
template <int = 0>  // a template for its linkage, as mask_experts_kernel: the header is in several libraries
__global__ void combine_local_kernel(bf16 const* y_perm, std::int32_t const* rows, std::int32_t const* ids,
                                     float const* weights, bf16 const* shared, std::int64_t tokens, int top_k,
                                     std::int64_t hidden, bf16* y, int row_warps, int foreign) {
  pdl_prologue();
  RowThread const p = row_thread(row_warps);
  std::int64_t const t = p.row;
  if (t >= tokens) return;
  for (std::int64_t c = p.column; c < hidden / 8; c += p.stride) {
    float acc[8] = {};
    if (shared != nullptr) {
      uint4 const v = reinterpret_cast<uint4 const*>(shared + t * hidden)[c];
      auto const* h = reinterpret_cast<__nv_bfloat162 const*>(&v);
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        float2 const f = __bfloat1622float2(h[e]);
        acc[2 * e] = f.x, acc[2 * e + 1] = f.y;
      }
    }
    accumulate_choices<true>(acc, y_perm, rows, weights, t, top_k, hidden, c, ids, foreign);
    reinterpret_cast<uint4*>(y + t * hidden)[c] = pack_bf16x8(acc);
  }
}

/// h = relu(h)^2 in place, eight elements a thread (n a multiple of 8), f32 math rounded once: the
/// ReLU^2 shared expert's activation between its dense products (shared_expert_dense).
template <int = 0>  // a template for its linkage: the header is in several libraries
__global__ void __launch_bounds__(256) relu2_in_place_kernel(bf16* h, std::int64_t n) {
  pdl_prologue();
  std::int64_t const vectors = n / 8, stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors; i += stride) {
    uint4 v = reinterpret_cast<uint4 const*>(h)[i];
    auto* p = reinterpret_cast<__nv_bfloat162*>(&v);
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      float2 const f = __bfloat1622float2(p[e]);
      float const a = fmaxf(f.x, 0.0f), b = fmaxf(f.y, 0.0f);
      p[e] = __floats2bfloat162_rn(a * a, b * b);
    }
    reinterpret_cast<uint4*>(h)[i] = v;
  }
}

/// This device's SMs (asked once): the row kernels' and the router's choices.
inline int moe_sms() {
  static int const sms = host::multiprocessor_count();
  return sms;
}

/// The scratch bytes moe_layer needs for `s`.
inline std::size_t moe_scratch_bytes(MoeShape const& s) {
  check_moe_shape(s);
  check_moe_routing(s);
  return MoeScratch(nullptr, s).bytes + 256;  // + alignment of the base
}

/// Steps 1-2 of the file comment: the router's logits and each token's choices and weights (and,
/// with a shared expert under sigmoid routing, its one group's offsets).
inline void moe_route(bf16 const* x, MoeWeights const& w, MoeShape const& s, MoeScratch const& m,
                      cudaStream_t stream) {
  auto const warps = [](std::int64_t n) { return dim3(unsigned((n + 7) / 8)); };
  if (s.routing == MoeRouting::softmax) {
    auto router = MoeScratch::router_arguments(s, x, w.router, m.logits);
    router.workspace = m.gemm_workspace, router.workspace_bytes = m.gemm_workspace_bytes;
    run_gemm_bf16_tn(router, stream);
    route_kernel<><<<warps(s.tokens), 256, 0, stream>>>(m.logits, s.experts, s.tokens, s.experts, s.top_k, s.renormalize,
                                                      m.ids, m.weights);
  } else {
    auto router = MoeScratch::router_f32_arguments(s, x, w.router, m.logits_f32);
    if (router_f32_skinny(s, moe_sms())) {
      run_gemm<plans::Bf16TNf32Simt>(router, stream);
    } else {
      router.workspace = m.gemm_workspace, router.workspace_bytes = m.gemm_workspace_bytes;
      run_gemm<plans::Bf16TNf32>(router, stream);
    }
    SigmoidRouting const r{.bias = w.correction_bias, .groups = s.groups, .top_groups = s.top_groups,
                           .renormalize = s.renormalize, .scaling = s.routed_scaling};
    route_sigmoid_kernel<><<<warps(s.tokens), 256, 0, stream>>>(m.logits_f32, s.experts, s.tokens, s.experts, s.top_k, r,
                                                              m.ids, m.weights, m.shared_offsets);
  }
  if (s.local_experts > 0)
    mask_experts_kernel<><<<unsigned((s.rows() + 255) / 256), 256, 0, stream>>>(m.ids, m.weights, s.rows(),
                                                                            s.expert_begin, s.local_experts);
  host::cuda_check(cudaGetLastError(), "moe route launch");
}

/// The routing steps alone (1-3 of the file comment): logits, choices, offsets and rows, x in expert
/// order (and, with a shared expert, its one group's offsets).
inline void moe_dispatch(bf16 const* x, MoeWeights const& w, MoeShape const& s, MoeScratch const& m,
                         cudaStream_t stream) {
  moe_route(x, w, s, m, stream);
  permute_kernel<><<<1, 1024, 0, stream>>>(m.ids, s.rows(), s.sorted_groups(), m.offsets, m.rows);
  int const row_warps = moe_row_warps(s.rows(), moe_sms());
  gather_kernel<><<<row_grid(s.rows(), row_warps), 256, 0, stream>>>(x, m.rows, s.rows(), s.top_k, s.hidden, m.x_perm,
                                                                   row_warps);
  host::cuda_check(cudaGetLastError(), "moe dispatch launch");
}

/// An FFN over grouped rows: h = act(in W1_g^T) (SwiGLU or ReLU^2 as s says; W1 each group's (2f, H)
/// or (f, H)), out = h W2_g^T (W2 each group's (H, f)); two grouped GEMMs on one workspace.
inline void moe_grouped_ffn(MoeShape const& s, MoeScratch const& m, GroupedRows const& groups, bf16 const* in,
                            bf16 const* first, bf16 const* down, bf16* h, bf16* out, std::int64_t f,
                            cudaStream_t stream) {
  auto const on_workspace = [&](auto args) {
    args.gemm.workspace = m.grouped_workspace, args.gemm.workspace_bytes = m.grouped_workspace_bytes;
    return args;
  };
  if (s.gated())
    run_grouped_gemm_bf16<true>(
        on_workspace(MoeScratch::grouped_arguments<plans::Bf16GroupedSwiGLU>(groups, in, first, h, 2 * f, s.hidden)),
        stream);
  else
    run_grouped_gemm_bf16_relu2(
        on_workspace(MoeScratch::grouped_arguments<plans::Bf16GroupedReLU2>(groups, in, first, h, f, s.hidden)), stream);
  run_grouped_gemm_bf16<false>(
      on_workspace(MoeScratch::grouped_arguments<plans::Bf16Grouped>(groups, h, down, out, s.hidden, f)), stream);
}

/// The ReLU^2 shared expert on the dense GEMMs (shared_expert_dense): h_shared = relu(x Wu^T)^2,
/// y_shared = h_shared Wd^T, each product as the dense dispatch chooses for T rows.
inline void moe_shared_dense(bf16 const* x, MoeWeights const& w, MoeShape const& s, MoeScratch const& m,
                             cudaStream_t stream) {
  auto const on_workspace = [&](GemmArguments<plans::Bf16TN> a) {
    a.workspace = m.gemm_workspace, a.workspace_bytes = m.gemm_workspace_bytes;
    return a;
  };
  run_gemm_bf16_tn(on_workspace(MoeScratch::dense_arguments(s, s.shared_ffn, s.hidden, x, w.shared_up, m.h_shared)),
                   stream);
  std::int64_t const vectors = s.tokens * s.shared_ffn / 8;
  relu2_in_place_kernel<><<<unsigned(std::min<std::int64_t>((vectors + 255) / 256, 1024)), 256, 0, stream>>>(
      m.h_shared, s.tokens * s.shared_ffn);
  run_gemm_bf16_tn(on_workspace(MoeScratch::dense_arguments(s, s.hidden, s.shared_ffn, m.h_shared, w.shared_down,
                                                            m.y_shared)),
                   stream);
}

/// The shared expert's y_shared (T, H) = its FFN of x: on the dense GEMMs (shared_expert_dense) or
/// as one group of the grouped GEMMs.
inline void moe_shared_ffn(bf16 const* x, MoeWeights const& w, MoeShape const& s, MoeScratch const& m,
                           cudaStream_t stream) {
  if (shared_expert_dense(s))
    moe_shared_dense(x, w, s, m, stream);
  else
    moe_grouped_ffn(s, m, MoeScratch::shared_rows(s, m.shared_offsets), x, w.shared_up, w.shared_down, m.h_shared,
                    m.y_shared, s.shared_ffn, stream);
}

/// The decode router's operands for `s`: the rows norm.x, normed into `normed` where norm.weight is
/// given; the logits, choices and counter in `m`.
inline MoeDecodeRouter decode_router_arguments(RmsNormedRows<bf16> const& norm, bf16* normed, MoeWeights const& w,
                                               MoeShape const& s, MoeScratch const& m) {
  return MoeDecodeRouter{.norm = norm, .normed = normed, .router = w.router, .logits = m.logits,
                         .logits_f32 = m.logits_f32, .ids = m.ids, .weights = m.weights,
                         .shared_rows = m.shared_offsets, .arrivals = m.arrivals, .tokens = s.tokens,
                         .hidden = s.hidden, .experts = s.experts, .top_k = s.top_k, .renormalize = s.renormalize,
                         .sigmoid = SigmoidRouting{.bias = w.correction_bias, .groups = s.groups,
                                                   .top_groups = s.top_groups, .renormalize = s.renormalize,
                                                   .scaling = s.routed_scaling}};
}

/// A decode step's block after its routing (moe_layer's first branch): the shared expert where the
/// experts' two launches do not fold it in, then those launches from the choices in `m`.
template <class Mark>
inline void moe_decode_block(bf16 const* x, MoeWeights const& w, MoeShape const& s, MoeScratch const& m, bf16* y,
                             cudaStream_t stream, Mark& mark) {
  bool const fold = moe_decode_folds_shared(s);  // then "moe experts" holds the shared expert too
  if (s.shared_ffn > 0 && !fold) {
    moe_shared_ffn(x, w, s, m, stream);
    mark("moe shared expert");
  }
  moe_decode_experts(x, w, s.on_rank(), m.ids, m.weights, m.h, s.shared_ffn > 0 && !fold ? m.y_shared : nullptr, y,
                     stream, s.local_experts > 0, fold ? m.h_shared : nullptr);
  mark("moe experts");
}

/// y (T, H) = the MoE block of x (T, H) (see the file comment); up to moe_decode_tokens tokens the
/// router is one launch (moe_decode_router.cuh, on one device) and the routed experts (and a ReLU^2
/// shared expert: moe_decode_folds_shared) are moe_decode.cuh's two launches from the choices.
/// `scratch`: moe_scratch_bytes, zeroed before its first use (the decode router's counter, the dense
/// GEMMs' split-K partials; the kernels leave them zeroed).
/// `mark(name)` is called on the host after each part's launches ("moe router", "moe experts",
/// "moe shared expert", "moe combine"): a profiler's events between them (the default does nothing).
template <class Mark = void (*)(char const*)>
inline void moe_layer(bf16 const* x, MoeWeights const& w, MoeShape const& s, bf16* y, void* scratch,
                      cudaStream_t stream = nullptr, Mark&& mark = [](char const*) {}) {
  check_moe_shape(s);
  check_moe_routing(s);
  if (s.tokens == 0) return;
  check_moe_pointers(x, y, scratch, w, s);
  auto const base = (reinterpret_cast<std::uintptr_t>(scratch) + 255) / 256 * 256;
  MoeScratch const m(reinterpret_cast<void*>(base), s);
  if (s.tokens <= moe_decode_tokens) {  // a decode step: the experts straight from the choices
    if (moe_decode_router_takes(s)) run_moe_decode_router(decode_router_arguments({.x = x}, nullptr, w, s, m), s, stream);
    else moe_route(x, w, s, m, stream);
    mark("moe router");
    moe_decode_block(x, w, s, m, y, stream, mark);
    return;
  }
  moe_dispatch(x, w, s, m, stream);
  mark("moe router");
  moe_grouped_ffn(s, m, MoeScratch::routed_rows(s.on_rank(), m.offsets), m.x_perm, s.gated() ? w.gate_up : w.up,
                  w.down, m.h, m.y_perm, s.ffn, stream);
  mark("moe experts");
  int const row_warps = moe_row_warps(s.tokens, moe_sms());
  dim3 const blocks = row_grid(s.tokens, row_warps);
  if (s.shared_ffn > 0) {
    moe_shared_ffn(x, w, s, m, stream);
    mark("moe shared expert");
  }
  if (s.local_experts > 0) {  // a rank: the other ranks' choices have no row in y_perm
    combine_local_kernel<><<<blocks, 256, 0, stream>>>(m.y_perm, m.rows, m.ids, m.weights,
                                                       s.shared_ffn > 0 ? m.y_shared : nullptr, s.tokens, s.top_k,
                                                       s.hidden, y, row_warps, s.foreign_group());
  } else if (s.shared_ffn > 0) {
    combine_shared_kernel<><<<blocks, 256, 0, stream>>>(m.y_perm, m.rows, m.weights, m.y_shared, s.tokens, s.top_k,
                                                      s.hidden, y, row_warps);
  } else {
    combine_kernel<><<<blocks, 256, 0, stream>>>(m.y_perm, m.rows, m.weights, s.tokens, s.top_k, s.hidden, y, row_warps);
  }
  host::cuda_check(cudaGetLastError(), "moe combine launch");
  mark("moe combine");
}

/// moe_layer of rmsnorm(norm.x + norm.residual) * norm.weight, the pre-norm decoder's add + RMSNorm
/// before its MoE block: the normed rows go to `normed` (T, H) and x + residual to norm.residual_out
/// (where given), as kernels/rows/rmsnorm.cuh computes them. Where the decode router takes s, it
/// norms the rows itself (one launch for the norm, the router and the choices); otherwise the norm
/// is a launch of its own ("add + rmsnorm") before moe_layer. Marks as moe_layer's ("moe router"
/// holds the norm where the router's launch does). Rule moe.pointers as moe_layer's; rule moe.norm:
/// norm.x and the gain device pointers, 16-byte aligned; rule moe.aliasing: `normed` and the
/// residual's output overlap no input (every CTA of the router reads the rows while its first
/// writes them).
template <class Mark = void (*)(char const*)>
inline void moe_layer_normed(RmsNormedRows<bf16> const& norm, bf16* normed, MoeWeights const& w, MoeShape const& s,
                             bf16* y, void* scratch, cudaStream_t stream = nullptr, Mark&& mark = [](char const*) {}) {
  check_moe_shape(s);
  check_moe_routing(s);
  if (s.tokens == 0) return;
  check_moe_pointers(normed, y, scratch, w, s);
  check_moe_norm(norm, normed, s);
  if (!moe_decode_router_takes(s)) {
    rmsnorm<bf16>(norm.x, norm.residual, norm.weight, normed, norm.residual_out, std::size_t(s.tokens),
                  std::size_t(s.hidden), norm.eps, stream);
    if (norm.residual == nullptr && norm.residual_out != nullptr)  // x alone is the stream's next value
      host::cuda_check(cudaMemcpyAsync(norm.residual_out, norm.x, std::size_t(s.tokens * s.hidden) * sizeof(bf16),
                                       cudaMemcpyDeviceToDevice, stream),
                       "cudaMemcpyAsync(moe residual)");
    mark("add + rmsnorm");
    moe_layer(normed, w, s, y, scratch, stream, mark);
    return;
  }
  auto const base = (reinterpret_cast<std::uintptr_t>(scratch) + 255) / 256 * 256;
  MoeScratch const m(reinterpret_cast<void*>(base), s);
  run_moe_decode_router(decode_router_arguments(norm, normed, w, s, m), s, stream);
  mark("moe router");  // the norm's few KB with the router's
  moe_decode_block(normed, w, s, m, y, stream, mark);
}

}  // namespace cute_cpp::kernels::moe
