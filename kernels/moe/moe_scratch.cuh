// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The MoE block's scratch (kernels/moe/moe.cuh): one buffer carved into the router's logits and
// choices, the permutation, the experts' activations, the GEMMs' workspaces and the shared expert's
// rows, and the arguments of the block's GEMMs whose workspaces it sizes.
#include <cute_cpp/kernels/gemm/grouped_gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>
#include <cute_cpp/kernels/moe/moe_shape.hpp>

#include <cute_cpp/epilogue/split_k_reduce.hpp>  // split_k_counter_bytes

#include <cuda_bf16.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace cute_cpp::kernels::moe {

/// The layer's scratch buffers (moe_scratch_bytes long, 256-byte aligned), carved in order; the
/// shared expert's last (null without one).
struct MoeScratch {
  unsigned* arrivals;   ///< the decode router's counter (zero at rest), first
  bf16* logits;         ///< (T, E) softmax routing's bf16 logits (null with sigmoid routing)
  float* logits_f32;    ///< (T, E) sigmoid routing's f32 logits (null with softmax routing)
  std::int32_t* ids;    ///< (T, k) chosen experts
  float* weights;       ///< (T, k) their weights
  std::int32_t* offsets;  ///< (E) each expert's end row
  std::int32_t* rows;   ///< (T, k) each choice's row in expert order
  bf16* x_perm;         ///< (T k, H)
  bf16* h;              ///< (T k, F)
  bf16* y_perm;         ///< (T k, H)
  void* gemm_workspace;  ///< the dense GEMMs' (router, dense shared expert) split-K counters and partials (zeroed once), first
  std::size_t gemm_workspace_bytes;
  void* grouped_workspace;
  std::size_t grouped_workspace_bytes;
  std::int32_t* shared_offsets;  ///< (1) the shared expert's one group: T (the sigmoid router writes it)
  bf16* h_shared;       ///< (T, Fs)
  bf16* y_shared;       ///< (T, H)
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
    std::size_t const pairs = std::size_t(s.rows()), tokens = std::size_t(s.tokens);
    bool const sigmoid = s.routing == MoeRouting::sigmoid;
    // NOTE: the decode router's counter, then the router GEMM's workspace come first, the workspace
    // at least its counters long, whatever T: each kernel finds its counters zero only where the last
    // launch left them so (a scratch reused by passes of other token counts, as a model's is, would
    // otherwise put them on an earlier pass's logits).
    arrivals = static_cast<unsigned*>(take(sizeof(unsigned)));
    gemm_workspace_bytes = std::max(sigmoid ? router_f32_workspace_bytes(s) : gemm_bf16_tn_workspace_bytes(router_arguments(s)),
                                    split_k_counter_bytes);
    // The dense shared expert's two products run after the router on the same stream, each leaving
    // the counters zeroed: one workspace for the three, the largest's.
    if (shared_expert_dense(s))
      gemm_workspace_bytes = std::max({gemm_workspace_bytes,
                                       gemm_bf16_tn_workspace_bytes(dense_arguments(s, s.shared_ffn, s.hidden)),
                                       gemm_bf16_tn_workspace_bytes(dense_arguments(s, s.hidden, s.shared_ffn))});
    gemm_workspace = take(gemm_workspace_bytes);
    void* const router_out = take(tokens * std::size_t(s.experts) * (sigmoid ? sizeof(float) : sizeof(bf16)));
    logits = sigmoid ? nullptr : static_cast<bf16*>(router_out);
    logits_f32 = sigmoid ? static_cast<float*>(router_out) : nullptr;
    ids = static_cast<std::int32_t*>(take(pairs * 4));
    weights = static_cast<float*>(take(pairs * 4));
    offsets = static_cast<std::int32_t*>(take(std::size_t(std::max(s.experts, s.sorted_groups())) * 4));
    rows = static_cast<std::int32_t*>(take(pairs * 4));
    x_perm = static_cast<bf16*>(take(pairs * std::size_t(s.hidden) * sizeof(bf16)));
    h = static_cast<bf16*>(take(pairs * std::size_t(s.ffn) * sizeof(bf16)));
    y_perm = static_cast<bf16*>(take(pairs * std::size_t(s.hidden) * sizeof(bf16)));
    grouped_workspace_bytes = std::max(first_workspace_bytes(s, routed_rows(s), s.ffn),
                                       grouped_gemm_bf16_workspace_bytes<false>(down_arguments(s)));
    if (s.shared_ffn > 0)
      grouped_workspace_bytes = std::max(grouped_workspace_bytes, first_workspace_bytes(s, shared_rows(s), s.shared_ffn));
    grouped_workspace = take(grouped_workspace_bytes);
    bool const shared = s.shared_ffn > 0;
    shared_offsets = shared ? static_cast<std::int32_t*>(take(4)) : nullptr;
    h_shared = shared ? static_cast<bf16*>(take(tokens * std::size_t(s.shared_ffn) * sizeof(bf16))) : nullptr;
    y_shared = shared ? static_cast<bf16*>(take(tokens * std::size_t(s.hidden) * sizeof(bf16))) : nullptr;
    bytes = used;
  }

  /// The router GEMM: logits = x Wr^T, bf16 out (softmax routing's, Plan plans::Bf16TN) or f32
  /// (sigmoid routing's, plans::Bf16TNf32: transformers computes them in f32).
  template <class Plan = plans::Bf16TN>
  [[nodiscard]] static GemmArguments<Plan> router_arguments(MoeShape const& s, bf16 const* x = nullptr,
                                                            bf16 const* router = nullptr,
                                                            typename Plan::TC* logits = nullptr) {
    GemmArguments<Plan> a;
    a.a = x, a.lda = s.hidden, a.b = router, a.ldb = s.hidden, a.c = logits, a.ldc = s.experts;
    a.m = s.tokens, a.n = s.experts, a.k = s.hidden;
    a.independent = IndependentOperand::B;  // the layer's weights: no kernel of a step writes them
    return a;
  }
  [[nodiscard]] static GemmArguments<plans::Bf16TNf32> router_f32_arguments(MoeShape const& s, bf16 const* x = nullptr,
                                                                            bf16 const* router = nullptr,
                                                                            float* logits = nullptr) {
    return router_arguments<plans::Bf16TNf32>(s, x, router, logits);
  }
  [[nodiscard]] static std::size_t router_f32_workspace_bytes(MoeShape const& s) {
    return kernels::gemm_workspace_bytes<plans::Bf16TNf32>(router_f32_arguments(s));
  }
  /// A dense product over the T rows: out (T, n) = in (T, k) W^T, W (n, k) (the dense shared expert's).
  [[nodiscard]] static GemmArguments<plans::Bf16TN> dense_arguments(MoeShape const& s, std::int64_t n, std::int64_t k,
                                                                    bf16 const* in = nullptr, bf16 const* weight = nullptr,
                                                                    bf16* out = nullptr) {
    GemmArguments<plans::Bf16TN> a;
    a.a = in, a.lda = k, a.b = weight, a.ldb = k, a.c = out, a.ldc = n;
    a.m = s.tokens, a.n = n, a.k = k;
    a.independent = IndependentOperand::B;  // the layer's weights: no kernel of a step writes them
    return a;
  }
  /// The routed experts' rows: E groups ended by `offsets`, T k rows. With the shape on_rank(), the
  /// local experts' groups: the foreign group's rows after them are in no group, so no tile computes them.
  [[nodiscard]] static GroupedRows routed_rows(MoeShape const& s, std::int32_t const* offsets = nullptr) {
    return GroupedRows{.groups = s.experts, .offsets = offsets, .rows = s.rows()};
  }
  /// The shared expert's rows: one group of all T rows (its offsets hold T).
  [[nodiscard]] static GroupedRows shared_rows(MoeShape const& s, std::int32_t const* offsets = nullptr) {
    return GroupedRows{.groups = 1, .offsets = offsets, .rows = s.tokens};
  }
  /// A grouped GEMM out = in W_g^T over `groups` rows: in (rows, K), each group's weight (N, K), the
  /// groups' contiguous; out (rows, N), or N / 2 with a gated plan.
  template <class Plan>
  [[nodiscard]] static GroupedGemmArguments<Plan> grouped_arguments(GroupedRows const& groups, bf16 const* in,
                                                                    bf16 const* weights, bf16* out, std::int64_t n,
                                                                    std::int64_t k) {
    GroupedGemmArguments<Plan> a;
    a.gemm.a = in, a.gemm.lda = k, a.gemm.b = weights, a.gemm.ldb = k, a.gemm.c = out;
    a.gemm.ldc = Plan::gated ? n / 2 : n;
    a.gemm.m = groups.rows, a.gemm.n = n, a.gemm.k = k;
    a.rows = groups;
    a.b_group_stride = n * k;
    return a;
  }
  [[nodiscard]] static GroupedBf16Arguments<true> gate_up_arguments(MoeShape const& s, bf16 const* x_perm = nullptr,
                                                                    bf16 const* gate_up = nullptr, bf16* h = nullptr,
                                                                    std::int32_t const* offsets = nullptr) {
    return grouped_arguments<plans::Bf16GroupedSwiGLU>(routed_rows(s, offsets), x_perm, gate_up, h, 2 * s.ffn, s.hidden);
  }
  [[nodiscard]] static GroupedBf16Arguments<false> down_arguments(MoeShape const& s, bf16 const* h = nullptr,
                                                                  bf16 const* down = nullptr, bf16* y_perm = nullptr,
                                                                  std::int32_t const* offsets = nullptr) {
    return grouped_arguments<plans::Bf16Grouped>(routed_rows(s, offsets), h, down, y_perm, s.hidden, s.ffn);
  }
  /// The workspace of the first projection (SwiGLU or ReLU^2) of experts `f` wide over `groups`.
  [[nodiscard]] static std::size_t first_workspace_bytes(MoeShape const& s, GroupedRows const& groups, std::int64_t f) {
    if (s.gated())
      return grouped_gemm_bf16_workspace_bytes<true>(
          grouped_arguments<plans::Bf16GroupedSwiGLU>(groups, nullptr, nullptr, nullptr, 2 * f, s.hidden));
    return grouped_gemm_bf16_workspace_bytes(
        grouped_arguments<plans::Bf16GroupedReLU2>(groups, nullptr, nullptr, nullptr, f, s.hidden));
  }
};

}  // namespace cute_cpp::kernels::moe
