// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3/fused_step_plan.hpp: the arithmetic of the fused decode step (fused_step.cuh), shared
// by its kernel and its host side and CPU-tested: which rows of each projection a CTA streams, how
// they are cut into the chunks of its shared-memory ring, how the keys are split among the CTAs,
// where shared memory goes, and which decoders the step takes (rule qwen3.fused-step).
#include <cute_cpp/config.hpp>  // CUTE_CPP_HD

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cute_cpp::models {

/// The widths of the Qwen3 decoder a fused step runs (one sequence, one new token).
struct FusedStepShape {
  int layers = 0, hidden = 0, heads_q = 0, heads_kv = 0, head_dim = 0, ffn = 0;
  /// Qwen3-MoE's sparse layers (experts 0: none): the experts, a token's choices, an expert's width,
  /// and whether the chosen probabilities are renormalized (norm_topk_prob).
  int experts = 0, top_k = 0, expert_ffn = 0;
  bool renormalize = false;
};

namespace fused_step {

/// The consumer warps (every phase's work), then one producer warp (the weight ring's copies):
/// block_threads a CTA.
inline constexpr int threads = 256, warps = threads / 32, block_threads = threads + 32;
/// The weight ring: chunks of at most chunk_bytes (whole rows, at most max_chunk_rows), `stages`
/// of them in flight a CTA (128 KB: ~17 MB over 132 SMs, several microseconds of HBM bandwidth,
/// enough to keep the weights streaming through a grid barrier).
inline constexpr int stages = 4, chunk_bytes = 32 << 10, max_chunk_rows = 64;
/// The widest projection input a row of the ring holds (bf16).
inline constexpr int max_width = chunk_bytes / 2;
/// Keys scored at once by an attention split (its keys' rows and scores in shared memory).
inline constexpr int key_block = 64;
/// Keys an attention split takes at least (a head of one split writes its output with no combine);
/// the most q heads a kv head serves.
inline constexpr int min_split_keys = 32, max_group = 8;
/// A sparse layer's most experts and choices (the router's warp arg-max, kernels/moe's).
inline constexpr int max_experts = 256, max_top_k = 8;

/// The step's projections. A dense layer streams qkv, o, gate_up, down; a sparse layer qkv, o,
/// router, expert_gate_up (its choices' gate-up weights one after another), expert_down.
enum class Projection : int { qkv = 0, o = 1, gate_up = 2, down = 3, router = 4, expert_gate_up = 5, expert_down = 6 };
inline constexpr int projections = 7;

/// The projections a layer streams, and its i-th.
CUTE_CPP_HD constexpr int layer_projections(bool sparse) { return sparse ? 5 : 4; }
CUTE_CPP_HD constexpr Projection layer_projection(bool sparse, int i) {
  return i < 2 || !sparse ? Projection(i) : Projection(i + 2);
}

/// Rows [begin, end) of a projection's weight.
struct Rows {
  int begin = 0, end = 0;
  [[nodiscard]] CUTE_CPP_HD constexpr int size() const { return end - begin; }
};

/// A projection's weight: n rows of k (bf16, row-major), cut among CTAs in runs of `unit` rows (16
/// for the interleaved gate-up weights, so that a CTA holds whole gate/up blocks of 8); no chunk
/// crosses a multiple of `segment` rows (one expert's part of expert_gate_up); `runs` times over
/// (expert_down: the CTA's rows of each choice's down weight, one run a choice).
struct Matrix {
  int n = 0, k = 0, unit = 8;
  int segment = 1 << 30, runs = 1;
};

CUTE_CPP_HD constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

CUTE_CPP_HD constexpr Matrix matrix(FusedStepShape const& s, Projection p) {
  switch (p) {
    case Projection::qkv: return {(s.heads_q + 2 * s.heads_kv) * s.head_dim, s.hidden, 8};
    case Projection::o: return {s.hidden, s.heads_q * s.head_dim, 8};
    case Projection::gate_up: return {2 * s.ffn, s.hidden, 16};
    case Projection::down: return {s.hidden, s.ffn, 8};
    case Projection::router: return {s.experts, s.hidden, 8};
    case Projection::expert_gate_up: return {s.top_k * 2 * s.expert_ffn, s.hidden, 16, 2 * s.expert_ffn};
    default: return {s.hidden, s.expert_ffn, 8, 1 << 30, s.top_k};
  }
}

/// CTA `cta` of `grid`'s rows of m: equal runs of whole units, the last CTAs possibly empty.
CUTE_CPP_HD constexpr Rows slice(Matrix const& m, int cta, int grid) {
  int const per = ceil_div(ceil_div(m.n, m.unit), grid) * m.unit;
  int const begin = cta * per < m.n ? cta * per : m.n;
  return {begin, begin + per < m.n ? begin + per : m.n};
}

/// Rows of k elements a chunk holds.
CUTE_CPP_HD constexpr int chunk_rows(int k) {
  int const fit = chunk_bytes / (2 * k);
  return fit < max_chunk_rows ? fit : max_chunk_rows;
}

/// The end of the chunk that starts at `row` of a slice that ends at `end`.
CUTE_CPP_HD constexpr int chunk_end(Matrix const& m, int row, int end) {
  int const full = row + chunk_rows(m.k) < end ? row + chunk_rows(m.k) : end;
  int const segment = (row / m.segment + 1) * m.segment;
  return full < segment ? full : segment;
}

/// The chunks of a CTA's slice (one run).
CUTE_CPP_HD constexpr int chunks(Matrix const& m, Rows r) {
  int count = 0;
  for (int row = r.begin; row < r.end; row = chunk_end(m, row, r.end)) ++count;
  return count;
}

/// How the keys of a step are split among CTAs: `count` splits of `keys` keys (the last shorter),
/// at most max_splits, each at least min_split_keys long unless there are fewer keys.
struct KeySplit {
  int count = 1, keys = 1;
};
CUTE_CPP_HD constexpr KeySplit key_split(int length, int max_splits) {
  int const want = length / min_split_keys > 1 ? length / min_split_keys : 1;
  int const count = want < max_splits ? want : max_splits;
  int const keys = ceil_div(length, count > 0 ? count : 1);
  return {ceil_div(length, keys), keys};
}

/// The most splits: every (kv head, split) one CTA.
CUTE_CPP_HD constexpr int max_splits(FusedStepShape const& s, int grid) {
  return grid / s.heads_kv > 1 ? grid / s.heads_kv : 1;
}

/// The floats of one (split, q head) partial: max, sum, then head_dim outputs.
CUTE_CPP_HD constexpr int partial_floats(FusedStepShape const& s) { return s.head_dim + 2; }

/// A split's attention scratch: its key block's K and V rows (bf16), then floats: the q heads, the
/// group's outputs, the new k and v, a key block's scores, m / l / alpha of each q head.
CUTE_CPP_HD constexpr std::int64_t split_scratch_bytes(FusedStepShape const& s) {
  std::int64_t const group = s.heads_kv > 0 ? s.heads_q / s.heads_kv : 0;
  return 4 * std::int64_t(key_block) * s.head_dim +
         4 * (group * s.head_dim * 2 + 2 * s.head_dim + group * key_block + 3 * max_group);
}

/// The combine's scratch (the same bytes, once the last split of a kv head has written its partials):
/// each (split, q head of the group)'s weight and sum, then each q head's denominator.
CUTE_CPP_HD constexpr std::int64_t combine_scratch_bytes(FusedStepShape const& s, int grid) {
  std::int64_t const splits = s.heads_kv > 0 ? max_splits(s, grid) : 1;
  std::int64_t const group = s.heads_kv > 0 ? s.heads_q / s.heads_kv : 0;
  return 4 * (2 * splits * group + group);
}

/// Where a CTA's dynamic shared memory goes (bytes from its start, each 128-aligned).
struct SmemLayout {
  std::int64_t ring = 0, activation = 0, row_out = 0, attention = 0, total = 0;
};

CUTE_CPP_HD constexpr std::int64_t align128(std::int64_t b) { return (b + 127) / 128 * 128; }

CUTE_CPP_HD constexpr SmemLayout smem_layout(FusedStepShape const& s, int grid) {
  int widest = s.hidden > s.ffn ? s.hidden : s.ffn;
  widest = widest > s.heads_q * s.head_dim ? widest : s.heads_q * s.head_dim;
  widest = widest > s.top_k * s.expert_ffn ? widest : s.top_k * s.expert_ffn;  // the choices' h rows
  int most_rows = 0;
  for (int p = 0; p < projections; ++p) {
    int const rows = slice(matrix(s, Projection(p)), 0, grid).size();
    most_rows = rows > most_rows ? rows : most_rows;
  }
  std::int64_t const split = split_scratch_bytes(s), combine = combine_scratch_bytes(s, grid);
  std::int64_t const attention = split > combine ? split : combine;
  SmemLayout l;
  l.ring = 0;
  l.activation = align128(std::int64_t(stages) * chunk_bytes);
  l.row_out = align128(l.activation + 2 * std::int64_t(widest));
  l.attention = align128(l.row_out + 4 * std::int64_t(most_rows));
  l.total = align128(l.attention + attention);
  return l;
}

/// Why the fused step does not take a decoder of shape `s` on `grid` CTAs with `smem_limit` bytes of
/// shared memory a CTA, or empty where it does (rule qwen3.fused-step).
inline std::string refusal(FusedStepShape const& s, int grid, std::int64_t smem_limit) {
  if (s.layers < 1 || s.hidden < 8 || s.heads_q < 1 || s.heads_kv < 1 || s.ffn < 8)
    return "a decoder of at least one layer and positive widths";
  if (s.head_dim != 64 && s.head_dim != 128 && s.head_dim != 256) return "head_dim 64, 128 or 256";
  if (s.hidden % 8 != 0 || s.ffn % 8 != 0) return "hidden_size and intermediate_size multiples of 8";
  if (s.heads_q % s.heads_kv != 0 || s.heads_q / s.heads_kv > max_group)
    return "at most " + std::to_string(max_group) + " q heads a kv head, and whole groups";
  if (s.hidden > max_width || s.ffn > max_width || s.heads_q * s.head_dim > max_width)
    return "projection inputs of at most " + std::to_string(max_width) + " elements (a row a ring chunk)";
  if (s.experts != 0 && (s.experts < 1 || s.experts > max_experts || s.top_k < 1 || s.top_k > max_top_k ||
                         s.top_k > s.experts || s.expert_ffn < 8 || s.expert_ffn % 8 != 0 ||
                         s.top_k * s.expert_ffn > max_width))
    return "sparse layers of at most " + std::to_string(max_experts) + " experts, at most " +
           std::to_string(max_top_k) + " choices, expert widths multiples of 8 whose choices' rows fit " +
           std::to_string(max_width) + " elements";
  if (grid < s.heads_kv) return "at least one CTA a kv head (" + std::to_string(grid) + " CTAs)";
  if (smem_layout(s, grid).total > smem_limit)
    return "shared memory of " + std::to_string(smem_layout(s, grid).total) + " bytes within the " +
           std::to_string(smem_limit) + " a CTA may take";
  return {};
}

}  // namespace fused_step
}  // namespace cute_cpp::models
