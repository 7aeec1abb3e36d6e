// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The MoE block's configuration and its host rules (kernels/moe/moe.cuh runs the block): the sizes,
// how the router's logits become choices and weights, the experts' FFN, the shared expert, and the
// weights' layouts. Host code only (g++ compiles it), so tests/cpu/moe checks every rule.
#include <cute_cpp/kernels/gemm/plans.hpp>  // choose_gemm_plan (host arithmetic)

#include <cuda_bf16.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cute_cpp::kernels::moe {

using bf16 = __nv_bfloat16;

inline constexpr int max_experts = 256;  ///< a warp's lanes hold 8 logits each
inline constexpr int max_top_k = 16;
inline constexpr int max_expert_groups = 32;  ///< a lane scores each group

/// How the router's logits become each token's k experts and their weights.
enum class MoeRouting {
  /// Qwen3-MoE, Mixtral: softmax over the E logits (f32 of bf16 logits), the top k probabilities,
  /// renormalized to sum to 1 when asked.
  softmax,
  /// Nemotron-H, DeepSeek-V3: scores sigmoid(logit) of f32 logits; the top k of score + correction
  /// bias within the topk_group groups whose two best biased scores sum highest; weights the
  /// unbiased scores, renormalized (sum + 1e-20) when asked, times routed_scaling.
  sigmoid,
};

/// The experts' FFN (the shared expert's too).
enum class MoeActivation {
  swiglu,  ///< down(silu(gate x) * up x), the gate-up weight fused
  relu2,   ///< down(relu(up x)^2), no gate (Nemotron-H)
};

/// The block's weights as the layer reads them, each expert's contiguous after the one before:
/// router (E, H); gate_up (SwiGLU) each expert's (2F, H) with gate and up rows interleaved in
/// blocks of 8 (kernels/gemm/ffn.cuh's pack_gate_up); up (ReLU^2) each expert's (F, H); down each
/// expert's (H, F). All bf16 row-major (nn.Linear's weight layout).
struct MoeWeights {
  bf16 const* router = nullptr;
  bf16 const* gate_up = nullptr;
  bf16 const* down = nullptr;
  bf16 const* up = nullptr;
  float const* correction_bias = nullptr;  ///< sigmoid routing: (E) f32, for the choice only; null: zeros
  bf16 const* shared_up = nullptr;    ///< the shared expert's first weight: (2Fs, H) interleaved, or (Fs, H)
  bf16 const* shared_down = nullptr;  ///< the shared expert's down weight (H, Fs)
};

/// The layer's sizes and kind.
struct MoeShape {
  std::int64_t tokens = 0, hidden = 0, ffn = 0;  ///< T, H, F (each expert's FFN)
  int experts = 0, top_k = 0;
  bool renormalize = true;  ///< the top k's weights divided by their sum (norm_topk_prob)
  MoeRouting routing = MoeRouting::softmax;
  MoeActivation activation = MoeActivation::swiglu;
  float routed_scaling = 1.0f;     ///< sigmoid routing: the weights times this (routed_scaling_factor)
  int groups = 1, top_groups = 1;  ///< sigmoid routing: n_group groups of E / n_group experts, topk_group kept
  std::int64_t shared_ffn = 0;     ///< Fs, the shared expert's FFN width (0: no shared expert)
  /// Expert parallelism (a tensor-parallel rank): the weights hold only experts [expert_begin, +
  /// local_experts) of the router's `experts`, as local experts 0, 1, ...; a choice of another
  /// rank's expert takes the id foreign_group() and adds nothing here: no expert computes it and the
  /// combine skips it (the ranks' outputs are then summed). 0: every expert is here (one device).
  int expert_begin = 0, local_experts = 0;
  /// The shape the experts' launches see: local_experts groups when the rank holds a range.
  [[nodiscard]] MoeShape on_rank() const {
    MoeShape s = *this;
    if (local_experts > 0) s.experts = local_experts, s.expert_begin = 0, s.local_experts = 0;
    return s;
  }
  /// The id another rank's choice takes on a rank: one past its local experts, so the permute sorts
  /// those choices last, after every local expert's rows, where the grouped GEMMs (local_experts
  /// groups) stop. The decode path and the combine skip that id.
  [[nodiscard]] int foreign_group() const { return local_experts; }
  /// The groups the permute sorts the choices into, and the offsets it writes: the experts, and on a
  /// rank its local experts and the foreign group (local_experts + 1).
  [[nodiscard]] int sorted_groups() const { return local_experts > 0 ? local_experts + 1 : experts; }
  [[nodiscard]] std::int64_t rows() const { return tokens * top_k; }  ///< rows in expert order
  [[nodiscard]] bool gated() const { return activation == MoeActivation::swiglu; }
};

/// Whether the shared expert runs on the dense GEMMs rather than as one group of the grouped GEMM:
/// its FFN takes all T rows with one weight, a dense problem, so the dense dispatch's choice fits it
/// (at a few rows the skinny GEMV over every SM; at 32 rows a swapped tile) where the grouped walk
/// takes 64 x 256 tiles, one CTA per 256 of its 3712 or 2688 columns (Nemotron-3 Nano: 15 and 11
/// CTAs of 132 streaming its 40 MB at any T). ReLU^2 experts only: the squared ReLU is then a pass
/// over h between the two products (the up product rounded to bf16 first, as transformers computes
/// it); a SwiGLU shared expert's interleaved gate-up weight needs the grouped GEMM's SwiGLU epilogue.
[[nodiscard]] constexpr bool shared_expert_dense(MoeShape const& s) {
  return s.shared_ffn > 0 && s.activation == MoeActivation::relu2;
}

/// How many of a 256-thread CTA's 8 warps share one row's columns in the row kernels (gather: a row
/// of x per (token, choice); combine: a token's row of y): 8 while `rows` rows of 8 warps each need no
/// more than 8 warps an SM of `sms`, halving down to 1 (a warp a row, 8 rows a CTA) as rows grow. A
/// warp walking a whole row alone (H / 8 = 336 16-byte columns at Nemotron-3 Nano's H 2688) pays a
/// memory round trip per 32 of them, which at decode's few rows is the kernel's whole time.
[[nodiscard]] constexpr int moe_row_warps(std::int64_t rows, int sms) {
  int w = 8;
  while (w > 1 && rows * w > std::int64_t(8) * sms) w /= 2;
  return w;
}

/// Whether the sigmoid router's f32 logits (T, E) = x Wr^T take the skinny GEMV (plans::Bf16TNf32Simt)
/// rather than the wide f32 tile: where the dense dispatch takes it for the same shape in bf16
/// (choose_gemm_plan on `sms` SMs; Nemotron-3 Nano's 128 x 2688 router: T <= 2). The wide tile has
/// one tile there (M <= 128, N = 128), split-K 3 at T = 1: 6 CTAs stream the router's 0.7 MB, where
/// the GEMV spreads its 128 rows over 128 CTAs.
[[nodiscard]] inline bool router_f32_skinny(MoeShape const& s, int sms) {
  return s.tokens > 0 && choose_gemm_plan(s.tokens, s.experts, s.hidden, sms).tile == GemmTile::simt;
}

/// Tokens up to which moe_layer runs the experts as moe_decode.cuh's two launches.
inline constexpr std::int64_t moe_decode_tokens = 8;
/// The most shared memory the decode router's staged rows may take (kernels/gemm's normed GEMV's).
inline constexpr std::size_t moe_decode_router_smem_limit = std::size_t(96) << 10;

/// The shared memory the decode router's staged rows take: T x H x 2 bytes.
[[nodiscard]] constexpr std::size_t moe_decode_router_smem(MoeShape const& s) {
  return std::size_t(s.tokens) * std::size_t(s.hidden) * sizeof(bf16);
}

/// Whether moe_layer routes `s` in one launch (moe_decode_router.cuh): a decode step's tokens
/// (moe_decode_tokens) on one device, whose rows fit the kernel's shared memory.
[[nodiscard]] constexpr bool moe_decode_router_takes(MoeShape const& s) {
  return s.tokens >= 1 && s.tokens <= moe_decode_tokens && s.local_experts == 0 &&
         moe_decode_router_smem(s) <= moe_decode_router_smem_limit;
}

namespace detail {
[[noreturn]] inline void moe_fail(char const* message, std::string const& values) {
  throw std::invalid_argument(std::string(message) + " (got " + values + ")");
}
}  // namespace detail

/// [moe.shape]: the sizes the kernels take.
inline void check_moe_shape(MoeShape const& s) {
  bool const shared_ok = s.shared_ffn == 0 || (s.shared_ffn >= 8 && s.shared_ffn % 8 == 0);
  if (s.experts < 1 || s.experts > max_experts || s.top_k < 1 || s.top_k > max_top_k || s.top_k > s.experts ||
      s.hidden < 8 || s.hidden % 8 != 0 || s.ffn < 8 || s.ffn % 8 != 0 || s.tokens < 0 ||
      s.rows() >= (std::int64_t{1} << 31) || !shared_ok)
    detail::moe_fail("cute-cpp [moe.shape]: 1 <= E <= 256 experts, 1 <= k <= min(E, 16), H, F and the shared "
                     "expert's Fs (0: none) multiples of 8, T k < 2^31",
                     "E=" + std::to_string(s.experts) + ", k=" + std::to_string(s.top_k) + ", H=" +
                         std::to_string(s.hidden) + ", F=" + std::to_string(s.ffn) + ", Fs=" +
                         std::to_string(s.shared_ffn) + ", T=" + std::to_string(s.tokens));
  // A rank's range leaves room for the foreign group in the permute's max_experts counters.
  bool const range_ok =
      s.local_experts == 0 || (s.expert_begin + s.local_experts <= s.experts && s.local_experts < max_experts);
  if (s.local_experts < 0 || s.expert_begin < 0 || !range_ok)
    detail::moe_fail("cute-cpp [moe.shape]: a rank's experts [expert_begin, + local_experts) lie within the E "
                     "experts, fewer than 256 of them (one more group holds the other ranks' choices)",
                     "expert_begin=" + std::to_string(s.expert_begin) + ", local_experts=" +
                         std::to_string(s.local_experts) + ", E=" + std::to_string(s.experts));
}

/// [moe.routing]: the router's settings. Softmax routing takes no groups, no scaling and no shared
/// expert (the sigmoid router writes the shared expert's one group of rows); sigmoid routing takes
/// E a multiple of 4 (its f32 logits' rows are TMA rows of 16-byte multiples), 1 <= topk_group <=
/// n_group <= 32 groups of E / n_group experts (at least 2 when n_group > 1: a group scores its
/// two best), at least k experts in the kept groups, and a positive finite scaling.
inline void check_moe_routing(MoeShape const& s) {
  std::string const values = "n_group=" + std::to_string(s.groups) + ", topk_group=" + std::to_string(s.top_groups) +
                             ", E=" + std::to_string(s.experts) + ", k=" + std::to_string(s.top_k) +
                             ", scaling=" + std::to_string(s.routed_scaling) + ", Fs=" + std::to_string(s.shared_ffn);
  if (s.routing == MoeRouting::softmax) {
    if (s.groups != 1 || s.top_groups != 1 || s.routed_scaling != 1.0f || s.shared_ffn != 0)
      detail::moe_fail("cute-cpp [moe.routing]: softmax routing takes n_group = topk_group = 1, a scaling of 1 and no "
                       "shared expert; group-limited, scaled routing with a shared expert is the sigmoid router's",
                       values);
    return;
  }
  int const size = s.groups > 0 && s.experts % s.groups == 0 ? s.experts / s.groups : 0;
  if (s.experts % 4 != 0 || s.groups < 1 || s.groups > max_expert_groups || s.top_groups < 1 ||
      s.top_groups > s.groups || size == 0 || (s.groups > 1 && size < 2) || s.top_k > s.top_groups * size ||
      !std::isfinite(s.routed_scaling) || !(s.routed_scaling > 0.0f))
    detail::moe_fail("cute-cpp [moe.routing]: sigmoid routing takes E a multiple of 4, 1 <= topk_group <= n_group <= "
                     "32, n_group dividing E into groups of at least 2 experts (or one group), k <= topk_group x "
                     "E / n_group, and a positive finite routed_scaling_factor",
                     values);
}

/// [moe.pointers]: every pointer the block reads or writes is given, and none it does not read.
inline void check_moe_pointers(void const* x, void const* y, void const* scratch, MoeWeights const& w,
                               MoeShape const& s) {
  bool const experts = w.router != nullptr && w.down != nullptr && (s.gated() ? w.gate_up : w.up) != nullptr;
  bool const shared = (s.shared_ffn > 0) == (w.shared_up != nullptr) && (s.shared_ffn > 0) == (w.shared_down != nullptr);
  bool const bias = s.routing == MoeRouting::sigmoid || w.correction_bias == nullptr;
  // The decode path's kernels read x and the weights (the router's too), and the combine writes y,
  // 16 bytes at a time
  // (the GEMMs' TMA checks its own operands at more tokens).
  auto const aligned = [](void const* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  bool const vectors = aligned(x) && aligned(y) && aligned(w.router) && aligned(w.gate_up) && aligned(w.up) && aligned(w.down) &&
                       aligned(w.shared_up) && aligned(w.shared_down);
  if (x == nullptr || y == nullptr || scratch == nullptr || !experts || !shared || !bias || !vectors)
    detail::moe_fail("cute-cpp [moe.pointers]: x, y, the scratch, the router, down and the experts' first weight "
                     "(gate_up for SwiGLU, up for ReLU^2) are device pointers; shared_up and shared_down are given "
                     "exactly when Fs > 0; a correction bias only with sigmoid routing; x, y, the router and the "
                     "expert weights 16-byte aligned",
                     std::string(x == nullptr || y == nullptr || scratch == nullptr ? "a null x, y or scratch"
                                 : !experts                                          ? "a null expert weight"
                                 : !shared ? "shared weights and Fs = " + std::to_string(s.shared_ffn) + " disagree"
                                 : !bias   ? "a correction bias with softmax routing"
                                           : "a pointer not 16-byte aligned"));
}

}  // namespace cute_cpp::kernels::moe
