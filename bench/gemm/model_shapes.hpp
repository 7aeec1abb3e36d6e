// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Issue 43's model-shape sweep, as data (host only, no CUDA): every projection of a linear layer
// y = x W^T (W: N x K) in the models the GEMM is judged by, the token counts M it is timed at, the
// held-out split the dispatch is judged on, and the thinning that fits a part of the sweep in one
// 10-minute command. bench_gemm --model-sweep runs it; tests/cpu/bench checks it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace cute_cpp::test::model_shapes {

/// One model's linear-layer facts (Hugging Face config names in comments). 0: the model has none.
struct ModelFacts {
  char const* name;
  std::int64_t hidden;        // hidden_size
  std::int64_t q_heads;       // num_attention_heads
  std::int64_t kv_heads;      // num_key_value_heads
  std::int64_t head_dim;      // head_dim
  std::int64_t ffn;           // intermediate_size of a dense MLP layer (0: every layer is MoE)
  std::int64_t vocab;         // vocab_size (the LM head; tied embeddings still multiply by it)
  std::int64_t expert_ffn;    // moe_intermediate_size (0: no experts)
  std::int64_t shared_ffn;    // a shared expert's intermediate size (0: none)
  bool mla;                   // DeepSeek's multi-head latent attention instead of fused QKV
};

// NOTE: Qwen3 from /work/shared/models/*.json; Qwen3-30B-A3B's layers are all MoE
// (decoder_sparse_step 1, no mlp_only_layers), so its intermediate_size 6144 is no projection.
// Checked against published configs (2026-12-05): Mixtral-8x7B's config.json (hidden 4096,
// 32 / 8 heads, 14336, 8 local experts, vocab 32000); DeepSeek-V3's (vLLM's DeepseekV3Config and
// inference/configs/config_671B.json: hidden 7168, 128 heads, q_lora_rank 1536, kv_lora_rank 512,
// qk_nope 128, qk_rope 64, v 128, moe_intermediate_size 2048, 1 shared expert, intermediate 18432,
// vocab 129280); Llama-3-70B's hidden 8192, 64 / 8 heads of 128 and Llama-3-8B's vocab 128256 and
// ffn 14336 (Meta's params.json arithmetic). Llama-3-70B's ffn 28672 and Mistral-7B's figures are
// as the brief gives them, not looked up.
inline constexpr ModelFacts models[] = {
    {"Llama-3-8B", 4096, 32, 8, 128, 14336, 128256, 0, 0, false},
    {"Llama-3-70B", 8192, 64, 8, 128, 28672, 128256, 0, 0, false},
    {"Mistral-7B", 4096, 32, 8, 128, 14336, 32000, 0, 0, false},
    {"Mixtral-8x7B", 4096, 32, 8, 128, 0, 32000, 14336, 0, false},
    {"Qwen3-0.6B", 1024, 16, 8, 128, 3072, 151936, 0, 0, false},
    {"Qwen3-1.7B", 2048, 16, 8, 128, 6144, 151936, 0, 0, false},
    {"Qwen3-4B", 2560, 32, 8, 128, 9728, 151936, 0, 0, false},
    {"Qwen3-8B", 4096, 32, 8, 128, 12288, 151936, 0, 0, false},
    {"Qwen3-14B", 5120, 40, 8, 128, 17408, 151936, 0, 0, false},
    {"Qwen3-32B", 5120, 64, 8, 128, 25600, 151936, 0, 0, false},
    {"Qwen3-30B-A3B", 2048, 32, 4, 128, 0, 151936, 768, 0, false},
    {"DeepSeek-V3", 7168, 128, 128, 128, 18432, 129280, 2048, 2048, true},
};

/// One (N, K) weight shape and every "model projection" that has it, in first-seen order.
struct Projection {
  std::int64_t n = 0, k = 0;
  std::vector<std::string> names;
  [[nodiscard]] std::string label() const {
    std::string s;
    for (auto const& name : names) s += (s.empty() ? "" : ", ") + name;
    return s;
  }
};

/// The model's projections (name, N, K) before deduplication.
inline void append_projections(ModelFacts const& f, std::vector<Projection>& out) {
  auto add = [&](char const* what, std::int64_t n, std::int64_t k) {
    out.push_back({n, k, {std::string(f.name) + " " + what}});
  };
  if (f.mla) {
    // DeepSeek-V3's MLA: q_lora_rank 1536, kv_lora_rank 512 + qk_rope_head_dim 64, 128 heads of
    // qk 128 + 64 (q_b) and of k_nope 128 + v 128 (kv_b), and the output from 128 x v 128.
    add("q_a", 1536, f.hidden);
    add("kv_a", 512 + 64, f.hidden);
    add("q_b", f.q_heads * (128 + 64), 1536);
    add("kv_b", f.q_heads * (128 + 128), 512);
    add("o", f.hidden, f.q_heads * 128);
  } else {
    add("qkv", (f.q_heads + 2 * f.kv_heads) * f.head_dim, f.hidden);
    add("o", f.hidden, f.q_heads * f.head_dim);
  }
  if (f.ffn > 0) {
    add("gate-up", 2 * f.ffn, f.hidden);
    add("down", f.hidden, f.ffn);
  }
  if (f.expert_ffn > 0) {
    add("expert gate-up", 2 * f.expert_ffn, f.hidden);
    add("expert down", f.hidden, f.expert_ffn);
  }
  if (f.shared_ffn > 0) {
    add("shared gate-up", 2 * f.shared_ffn, f.hidden);
    add("shared down", f.hidden, f.shared_ffn);
  }
  add("lm-head", f.vocab, f.hidden);
}

/// Every model's projections, deduplicated by (N, K): one entry per weight shape, keeping every
/// name that has it, in the order the models list them.
inline std::vector<Projection> projections() {
  std::vector<Projection> all, unique;
  for (auto const& f : models) append_projections(f, all);
  for (auto& p : all) {
    auto same =
        std::find_if(unique.begin(), unique.end(), [&](Projection const& u) { return u.n == p.n && u.k == p.k; });
    if (same == unique.end()) unique.push_back(std::move(p));
    else same->names.push_back(p.names.front());
  }
  return unique;
}

/// The token counts: every M from 1 to 16, then 16 * 1.12^i rounded (odd values kept as they
/// fall, a repeat skipped), and 16384 last.
inline std::vector<std::int64_t> m_grid(std::int64_t last = 16384, double step = 1.12) {
  std::vector<std::int64_t> grid;
  for (std::int64_t m = 1; m <= 16 && m <= last; ++m) grid.push_back(m);
  for (int i = 1;; ++i) {
    auto const m = std::int64_t(std::llround(16.0 * std::pow(step, i)));
    if (m >= last) break;
    if (m > grid.back()) grid.push_back(m);
  }
  if (grid.back() != last) grid.push_back(last);
  return grid;
}

/// SplitMix64's finaliser: a fixed, well-mixed hash (the split must not change between builds).
constexpr std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The dispatch is fitted on "fit" points and judged on "held-out" ones (issue 43): a hash of
/// (M, N, K), so a shape's half never depends on which others are swept.
constexpr bool held_out(std::int64_t m, std::int64_t n, std::int64_t k) {
  return (mix(mix(mix(std::uint64_t(m)) ^ std::uint64_t(n)) ^ std::uint64_t(k)) & 1) != 0;
}
inline char const* half_name(std::int64_t m, std::int64_t n, std::int64_t k) {
  return held_out(m, n, k) ? "held-out" : "fit";
}

struct Point {
  std::int64_t m, n, k;
  std::size_t projection;  // index into projections()
};

/// `points` of `grid` spread evenly over it, both ends kept (all of it when points >= its size).
inline std::vector<std::int64_t> thin(std::vector<std::int64_t> const& grid, std::size_t points) {
  if (points >= grid.size()) return grid;
  if (points <= 1) return {grid.back()};
  std::vector<std::int64_t> kept;
  for (std::size_t i = 0; i < points; ++i) {
    std::size_t const at = (i * (grid.size() - 1) + (points - 1) / 2) / (points - 1);
    if (kept.empty() || kept.back() != grid[at]) kept.push_back(grid[at]);
  }
  return kept;
}

/// Timed calls per point. NOTE: cuBLASLt's first 8 heuristic algorithms are all timed, but each
/// with `screen` calls only; the fastest of them is then timed again with `calls`, as ours and
/// cublasGemmEx are. The screen's few calls favour the reference (a noisy minimum), never ours.
struct Iterations {
  int calls = 10;   // cold: 10, warm: 20
  int screen = 3;   // each cuBLASLt algorithm's screening calls
  int lt_algorithms = 8;
};
inline Iterations iterations(bool warm) { return warm ? Iterations{20, 5, 8} : Iterations{10, 3, 8}; }

/// Which sweep a point's time is estimated for: the model-shape sweep cold or warm, or the candidate
/// sweep (every tile under every cut, cold: what a tile table is fitted to).
enum class Sweep { cold, warm, candidates };

/// Timings a candidate-sweep point takes on average: ~11 tiles under whole tiles, the heuristic's
/// cut, stream-K and the split-K counts of one wave (up to 11), less those a tile refuses; and
/// cuBLASLt's. A guess, to be replaced by the first run's figure.
inline constexpr int candidate_timings = 90;

/// Estimated seconds one point takes on an H200 (bf16/fp16, 2-byte elements): each call at the
/// larger of 600 TFLOP/s and 3 TB/s plus 8 us of launch (cold: 130 us, bench_cold_start's flush and
/// its 100 us spin); the model sweep's calls are ours and cublasGemmEx's `calls`, the 8 algorithms'
/// screens and the best's `calls`, two checked runs, a warm-up call before each median; the
/// candidate sweep's, candidate_timings medians of 7 cold calls and a warm-up each; then the
/// operands' allocation and device fill (at 100 GB/s), and 10 ms a point for the rest (a guess,
/// to be replaced by the first run's figure).
inline double point_seconds(std::int64_t m, std::int64_t n, std::int64_t k, Sweep sweep) {
  double const flops = 2.0 * double(m) * double(n) * double(k);
  double const bytes = 2.0 * double(m * k + n * k + m * n);
  double const call_s = std::max(flops / 600e12, bytes / 3e12) + (sweep == Sweep::warm ? 8e-6 : 130e-6);
  Iterations const it = iterations(sweep == Sweep::warm);
  int const calls = sweep == Sweep::candidates ? candidate_timings * 8
                                               : 3 * it.calls + it.lt_algorithms * it.screen + 2 + 3 + it.lt_algorithms;
  return double(calls) * call_s + bytes / 100e9 + 10e-3;
}

/// Which half of the points a sweep takes: all, the fit half (a table is fitted on) or the held-out one
/// (the dispatch is judged on).
enum class Half { all, fit, held_out };
constexpr bool in_half(Half half, std::int64_t m, std::int64_t n, std::int64_t k) {
  return half == Half::all || held_out(m, n, k) == (half == Half::held_out);
}

/// The sweep's points for one part: `projections` (each kept), M thinned to `m_points` per
/// projection, then only the points of `half`, then the `part`-th of `parts` (points dealt
/// round-robin, so parts take similar time).
inline std::vector<Point> points(std::size_t m_points, Half half = Half::all, int part = 0, int parts = 1) {
  std::vector<Projection> const ps = projections();
  std::vector<std::int64_t> const grid = thin(m_grid(), m_points);
  std::vector<Point> all;
  for (std::size_t j = 0; j < ps.size(); ++j)
    for (std::int64_t m : grid)
      if (in_half(half, m, ps[j].n, ps[j].k)) all.push_back({m, ps[j].n, ps[j].k, j});
  std::vector<Point> mine;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (int(i % std::size_t(parts)) == part) mine.push_back(all[i]);
  return mine;
}

inline double estimated_seconds(std::vector<Point> const& pts, Sweep sweep) {
  double s = 0;
  for (auto const& p : pts) s += point_seconds(p.m, p.n, p.k, sweep);
  return s;
}

/// The most M points per projection (at most the whole grid) whose part's estimate is within
/// `budget_s` seconds: how bench_gemm fits one part of a sweep in a 10-minute command.
inline std::size_t m_points_within(double budget_s, Sweep sweep, Half half, int part, int parts) {
  std::size_t best = 1;
  for (std::size_t p = 1; p <= m_grid().size(); ++p)
    if (estimated_seconds(points(p, half, part, parts), sweep) <= budget_s) best = p;
  return best;
}

}  // namespace cute_cpp::test::model_shapes
