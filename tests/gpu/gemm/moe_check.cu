// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// moe_check: checks the MoE block (kernels/moe/moe.cuh) on fresh random data with poisoned outputs,
// step by step against the host in double: the router's logits, the routing from them (softmax, top k,
// renormalized), the experts' offsets and each choice's row, and y from the GPU's choices (h
// rounded to bf16 as the kernels store it); the shape it refuses; and expert parallelism: the ranks'
// moe_layer over their expert ranges sum to the one-device y, computing only their own choices; and
// moe_layer_normed (the add + RMSNorm before the block folded into the decode router).
//   moe_check [--seed N] [--small]   (--small: the two smaller layers, for compute-sanitizer)
// Its timings: bench/gemm/bench_ffn_moe.cu.
#include "tests/gpu/gemm/moe_operands.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"
#include "tests/support/parallel.hpp"  // parallel_for

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cute_cpp::test::moe_block {
namespace {

/// Every step of the layer against the host (see the file comment).
bool check_layer(moe::MoeShape const& shape, std::mt19937_64& rng) {
  Layer l(shape, rng);
  auto const& s = l.s;
  auto const t_count = std::size_t(s.tokens), e_count = std::size_t(s.experts), k = std::size_t(s.top_k);
  auto const h = std::size_t(s.hidden), f = std::size_t(s.ffn);
  l.dy.fill_bytes(0xFF);
  l.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const m = l.carved();
  auto const logits = download(m.logits, t_count * e_count);
  auto const ids = download(m.ids, t_count * k);
  auto const weights = download(m.weights, t_count * k);
  auto const offsets = download(m.offsets, e_count);
  auto const rows = download(m.rows, t_count * k);
  auto const y = l.dy.download();
  // The logits against x Wr^T in double (the router's output rounded to bf16).
  std::size_t bad_logits = 0;
  for (std::size_t t = 0; t < t_count; ++t)
    for (std::size_t e = 0; e < e_count; ++e) {
      double want = 0;
      for (std::size_t c = 0; c < h; ++c) want += val(l.x[t * h + c]) * val(l.router[e * h + c]);
      bad_logits += !(std::fabs(val(logits[t * e_count + e]) - want) <= 1e-3 + std::fabs(want) / 128);
    }
  // Routing, from the GPU's logits: the chosen experts are a top k (a choice may swap with an
  // equal probability), each weight its probability.
  std::size_t bad_route = 0;
  for (std::size_t t = 0; t < t_count; ++t) {
    std::vector<double> p(e_count);
    double top = -1e300, sum = 0, chosen_sum = 0;
    for (std::size_t e = 0; e < e_count; ++e) top = std::max(top, val(logits[t * e_count + e]));
    for (std::size_t e = 0; e < e_count; ++e) sum += p[e] = std::exp(val(logits[t * e_count + e]) - top);
    for (double& v : p) v /= sum;
    std::vector<double> sorted = p;
    std::sort(sorted.rbegin(), sorted.rend());
    for (std::size_t j = 0; j < k; ++j) chosen_sum += p[std::size_t(ids[t * k + j])];
    for (std::size_t j = 0; j < k; ++j) {
      auto const e = std::size_t(ids[t * k + j]);
      double const want = s.renormalize ? p[e] / chosen_sum : p[e];
      bool const in_top = p[e] >= sorted[k - 1] * (1 - 1e-5);
      bool const unique = std::count(ids.begin() + std::ptrdiff_t(t * k), ids.begin() + std::ptrdiff_t((t + 1) * k),
                                     ids[t * k + j]) == 1;
      bad_route += !(in_top && unique && std::fabs(weights[t * k + j] - want) <= 1e-5 + 1e-4 * want);
    }
  }
  // Offsets: each expert's end row; rows: a permutation placing each choice within its expert's rows.
  // The grouped path's offsets and rows (a decode step's few tokens run the experts without them).
  bool const permuted = s.tokens > moe::moe_decode_tokens;
  std::size_t const bad_rows = permuted ? count_bad_rows(ids, offsets, rows) : 0;
  // y from the GPU's choices and weights.
  std::vector<double> want(t_count * h, 0.0);
  parallel_for(t_count, [&](std::size_t t) {  // a token a job on every core
    std::vector<double> act(f);
    for (std::size_t j = 0; j < k; ++j) {
      auto const e = std::size_t(ids[t * k + j]);
      bf16 const* wgu = l.gate_up.data() + e * 2 * f * h;
      for (std::size_t r = 0; r < f; ++r) {
        std::size_t const gate = r / 8 * 16 + r % 8;
        double g = 0, u = 0;
        for (std::size_t c = 0; c < h; ++c) {
          g += val(l.x[t * h + c]) * val(wgu[gate * h + c]);
          u += val(l.x[t * h + c]) * val(wgu[(gate + 8) * h + c]);
        }
        act[r] = val(static_cast<bf16>(static_cast<float>(g / (1 + std::exp(-g)) * u)));
      }
      bf16 const* wd = l.down.data() + e * h * f;
      for (std::size_t c = 0; c < h; ++c) {
        double acc = 0;
        for (std::size_t r = 0; r < f; ++r) acc += act[r] * val(wd[c * f + r]);
        // y_perm is stored as bf16 before the weighted sum.
        want[t * h + c] += double(weights[t * k + j]) * val(static_cast<bf16>(static_cast<float>(acc)));
      }
    }
  });
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  auto const res = kn::check_close(std::span<bf16 const>(y), std::span<double const>(want), 1.0 / 64, scale * 0.01);
  bool const ok = bad_logits == 0 && bad_route == 0 && bad_rows == 0 && res.ok();
  std::printf("check moe T=%-5lld H=%-5lld F=%-5lld E=%-4d k=%-2d logits %s (%zu bad), routing %s (%zu bad), rows %s "
              "(%zu bad), y %s\n",
              (long long)s.tokens, (long long)s.hidden, (long long)s.ffn, s.experts, s.top_k,
              bad_logits ? "FAILED" : "ok", bad_logits, bad_route ? "FAILED" : "ok", bad_route, bad_rows ? "FAILED" : permuted ? "ok" : "unused", bad_rows, res.summary().c_str());
  return ok;
}

/// moe_layer_normed (the add + RMSNorm before the block, inside the decode router's launch up to
/// moe_decode_tokens, a launch of its own past them) on fresh x, residual and gain, its outputs
/// poisoned: x + residual bit for bit (bf16 of the f32 sum), the normed rows against the host in
/// double (to bf16 rounding), and y bit for bit moe_layer's on the GPU's normed rows, on a scratch
/// of its own (check_layer checks that one against the host). Without a residual (a stream's first
/// norm), x itself is the stream's next value.
bool check_normed_layer(moe::MoeShape const& shape, bool with_residual, std::mt19937_64& rng) {
  Layer l(shape, rng);
  auto const& s = l.s;
  auto const n = std::size_t(s.tokens * s.hidden), h = std::size_t(s.hidden);
  float const eps = 1e-6f;
  auto const residual = kn::random_values<bf16>(n, rng, -2.0, 2.0);
  auto const gain = kn::random_values<bf16>(h, rng, 0.5, 1.5);
  host::DeviceBuffer<bf16> dresidual, dgain, dsum(n), dnormed(n);
  upload(dresidual, residual), upload(dgain, gain);
  dsum.fill_bytes(0xFF), dnormed.fill_bytes(0xFF), l.dy.fill_bytes(0xFF);
  kn::RmsNormedRows<bf16> const norm{l.dx.data(), with_residual ? dresidual.data() : nullptr, dgain.data(), dsum.data(),
                                     eps};
  moe::moe_layer_normed(norm, dnormed.data(), l.weights(), s, l.dy.data(), l.scratch.data());
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const sum = dsum.download(), normed = dnormed.download(), y = l.dy.download();
  std::size_t bad_sum = 0;
  std::vector<double> want(n);
  for (std::size_t t = 0; t < std::size_t(s.tokens); ++t) {
    double squares = 0;
    for (std::size_t c = 0; c < h; ++c) {
      std::size_t const i = t * h + c;
      bf16 const expect = with_residual ? static_cast<bf16>(float(l.x[i]) + float(residual[i])) : l.x[i];
      bad_sum += std::memcmp(&expect, &sum[i], sizeof(bf16)) != 0;
      squares += val(expect) * val(expect);
    }
    double const rstd = 1.0 / std::sqrt(squares / double(h) + double(eps));
    for (std::size_t c = 0; c < h; ++c) {
      std::size_t const i = t * h + c;
      bf16 const expect = with_residual ? static_cast<bf16>(float(l.x[i]) + float(residual[i])) : l.x[i];
      want[i] = val(expect) * val(gain[c]) * rstd;
    }
  }
  auto const normed_res = kn::check_close(std::span<bf16 const>(normed), std::span<double const>(want), 1.0 / 128, 1e-6);
  // moe_layer on the GPU's normed rows, on a scratch of its own.
  host::DeviceBuffer<bf16> dy(n);
  host::DeviceBuffer<unsigned char> scratch(moe::moe_scratch_bytes(s));
  scratch.fill_bytes(0), dy.fill_bytes(0xFF);
  moe::moe_layer(dnormed.data(), l.weights(), s, dy.data(), scratch.data());
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const y_plain = dy.download();
  bool const same = std::memcmp(y.data(), y_plain.data(), n * sizeof(bf16)) == 0;
  bool const ok = bad_sum == 0 && normed_res.ok() && same;
  std::printf("check moe normed T=%-5lld H=%-5lld E=%-4d k=%-2d %s (%s): x + residual %s (%zu bad), normed %s, "
              "y vs moe_layer of the normed rows %s\n",
              (long long)s.tokens, (long long)s.hidden, s.experts, s.top_k,
              with_residual ? "with a residual" : "no residual",
              moe::moe_decode_router_takes(s) ? "in the router's launch" : "a launch of its own",
              bad_sum ? "FAILED" : "ok", bad_sum, normed_res.summary().c_str(), same ? "ok (bit-identical)" : "FAILED");
  return ok;
}

bool check_rejection() {
  try {
    (void)moe::moe_scratch_bytes({.tokens = 4, .hidden = 64, .ffn = 64, .experts = 300, .top_k = 2});
  } catch (std::invalid_argument const& e) {
    bool const named = std::string(e.what()).find("[moe.shape]") != std::string::npos;
    std::printf("check moe rejects 300 experts [moe.shape] %s\n", named ? "ok" : "FAILED: another error");
    return named;
  }
  std::printf("check moe rejects 300 experts [moe.shape] FAILED: no error\n");
  return false;
}

/// moe_layer_normed refuses normed rows written over its input (every CTA of the router reads x while
/// the first writes them), before any launch.
bool check_normed_aliasing(std::mt19937_64& rng) {
  Layer l({.tokens = 2, .hidden = 64, .ffn = 48, .experts = 8, .top_k = 2}, rng);
  host::DeviceBuffer<bf16> gain(64);
  std::string rule = "no error";
  try {
    moe::moe_layer_normed({.x = l.dx.data(), .weight = gain.data()}, l.dx.data(), l.weights(), l.s, l.dy.data(),
                          l.scratch.data());
  } catch (std::invalid_argument const& e) {
    rule = e.what();
  }
  bool const named = rule.find("moe.aliasing") != std::string::npos;
  std::printf("check moe normed rows over x rejected [moe.aliasing] %s\n", named ? "ok" : ("FAILED: " + rule).c_str());
  return named;
}

/// One scratch through passes of different token counts, as a model's decode and prefill passes
/// share it: a few tokens (the router GEMM splits K), many, then the few again give the first
/// pass's y bit for bit (the router's split-K counters must stay where the kernels left them zero).
bool check_scratch_reuse(std::mt19937_64& rng) {
  moe::MoeShape const few{.tokens = 24, .hidden = 2048, .ffn = 128, .experts = 64, .top_k = 4};
  moe::MoeShape many = few;
  many.tokens = 1500;
  Layer l(many, rng);  // its x holds `many` tokens; the few are its first rows
  host::DeviceBuffer<unsigned char> scratch(std::max(moe::moe_scratch_bytes(few), moe::moe_scratch_bytes(many)));
  scratch.fill_bytes(0);
  auto const pass = [&](moe::MoeShape const& s) {
    l.dy.fill_bytes(0xFF);
    moe::moe_layer(l.dx.data(), l.weights(), s, l.dy.data(), scratch.data());
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    auto y = l.dy.download();
    y.resize(std::size_t(s.tokens * s.hidden));
    return y;
  };
  auto const first = pass(few);
  (void)pass(many);
  auto const again = pass(few);
  bool const same = std::memcmp(first.data(), again.data(), first.size() * sizeof(bf16)) == 0;
  std::printf("check moe one scratch for T=24, 1500, 24: the second T=24 pass %s\n",
              same ? "ok (bit-identical)" : "FAILED (differs from the first)");
  return same;
}

/// Expert parallelism (MoeShape::expert_begin, local_experts), as a tensor-parallel rank runs it: rank r
/// of `ranks` holds experts [r E/N, (r+1) E/N) (here: a view of the whole layer's weights from its
/// first expert) and the replicated router. Its choices of other ranks' experts must take the foreign
/// group: no GEMM row (on the grouped path, the local experts' offsets end at its own choices and the
/// foreign group's at T k) and no decode launch computes them, so their rows of y_perm and h stay the
/// NaN poison they start as, which the combine must never read. The ranks' y, summed (each rounded to
/// bf16 once), equal the one-device y to bf16 rounding.
bool check_expert_ranges(moe::MoeShape const& shape, int ranks, std::mt19937_64& rng) {
  Layer l(shape, rng);
  auto const& s = l.s;
  auto const e_count = s.experts, local = s.experts / ranks;
  auto const pairs = std::size_t(s.rows()), h = std::size_t(s.hidden);
  auto const f = std::size_t(s.ffn);
  l.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const whole = l.dy.download();
  std::vector<double> sum(whole.size(), 0.0);
  bool const permuted = s.tokens > moe::moe_decode_tokens;
  std::size_t bad_ids = 0, bad_offsets = 0, computed = 0;
  for (int r = 0; r < ranks; ++r) {
    moe::MoeShape rank = s;
    rank.expert_begin = r * local, rank.local_experts = local;
    moe::MoeWeights w = l.weights();
    w.gate_up += std::size_t(rank.expert_begin) * 2 * f * h, w.down += std::size_t(rank.expert_begin) * h * f;
    host::DeviceBuffer<unsigned char> scratch(moe::moe_scratch_bytes(rank));
    scratch.fill_bytes(0);  // the router GEMM's split-K counters start zero
    auto const base = (reinterpret_cast<std::uintptr_t>(scratch.data()) + 255) / 256 * 256;
    moe::MoeScratch const m(reinterpret_cast<void*>(base), rank);
    host::cuda_check(cudaMemset(m.y_perm, 0xFF, pairs * h * sizeof(bf16)), "cudaMemset(y_perm)");  // NaN
    host::cuda_check(cudaMemset(m.h, 0xFF, pairs * f * sizeof(bf16)), "cudaMemset(h)");
    l.dy.fill_bytes(0xFF);
    moe::moe_layer(l.dx.data(), w, rank, l.dy.data(), scratch.data());
    host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    auto const ids = download(m.ids, pairs);
    auto const y = l.dy.download();
    for (std::size_t i = 0; i < y.size(); ++i) sum[i] += val(y[i]);
    auto const count = [&](auto pred) { return std::size_t(std::count_if(ids.begin(), ids.end(), pred)); };
    std::size_t const mine = count([&](std::int32_t e) { return e >= 0 && e < local; });
    bad_ids += count([&](std::int32_t e) { return e < 0 || e > local; });  // local, or the foreign group
    computed += mine;
    if (permuted) {
      auto const offsets = download(m.offsets, std::size_t(rank.sorted_groups()));
      bad_offsets += offsets[std::size_t(local - 1)] != std::int32_t(mine);  // the GEMMs' last row
      bad_offsets += offsets[std::size_t(local)] != std::int32_t(pairs);     // the foreign group, last
    }
  }
  double scale = 0;
  for (double v : sum) scale = std::max(scale, std::fabs(v));
  auto const res = kn::check_close(std::span<bf16 const>(whole), std::span<double const>(sum), 1.0 / 64, scale * 0.01);
  bool const ok = bad_ids == 0 && bad_offsets == 0 && computed == pairs && res.ok();
  std::printf("check moe expert ranges T=%-5lld E=%-4d k=%-2d over %d ranks (%s): ids %s, offsets %s, rows computed "
              "%zu of %zu x %d %s, sum of the ranks' y vs one device %s\n",
              (long long)s.tokens, e_count, s.top_k, ranks, permuted ? "grouped" : "decode",
              bad_ids ? "FAILED" : "ok", bad_offsets ? "FAILED" : permuted ? "ok" : "unused", computed, pairs, ranks,
              computed == pairs ? "ok" : "FAILED", res.summary().c_str());
  return ok;
}

bool run_checks(std::mt19937_64& rng, bool small) {
  bool ok = check_rejection();
  ok &= check_normed_aliasing(rng);
  ok &= check_scratch_reuse(rng);
  ok &= check_layer({.tokens = 37, .hidden = 128, .ffn = 64, .experts = 8, .top_k = 2}, rng);
  ok &= check_layer({.tokens = 5, .hidden = 64, .ffn = 48, .experts = 40, .top_k = 6, .renormalize = false}, rng);
  ok &= check_expert_ranges({.tokens = 37, .hidden = 128, .ffn = 64, .experts = 8, .top_k = 2}, 2, rng);
  ok &= check_expert_ranges({.tokens = 5, .hidden = 64, .ffn = 48, .experts = 40, .top_k = 6, .renormalize = false}, 4,
                            rng);
  if (!small) {
    ok &= check_expert_ranges({.tokens = 300, .hidden = 256, .ffn = 96, .experts = 128, .top_k = 8}, 8, rng);
    for (std::int64_t tokens : {1, 9})  // Qwen3-30B-A3B's widths over 4 ranks: the decode path, then grouped
      ok &= check_expert_ranges({.tokens = tokens, .hidden = 2048, .ffn = 768, .experts = 128, .top_k = 8}, 4, rng);
    ok &= check_layer({.tokens = 300, .hidden = 256, .ffn = 96, .experts = 128, .top_k = 8}, rng);
    ok &= check_layer({.tokens = 1, .hidden = 64, .ffn = 64, .experts = 256, .top_k = 16}, rng);
    // Decode steps at Qwen3-30B-A3B's widths (moe_decode.cuh's two launches up to 8 tokens; 9 the
    // grouped path beside them).
    for (std::int64_t tokens : {1, 8, 9})
      ok &= check_layer({.tokens = tokens, .hidden = 2048, .ffn = 768, .experts = 128, .top_k = 8}, rng);
    for (std::int64_t tokens : {1, 3, 9})
      ok &= check_normed_layer({.tokens = tokens, .hidden = 2048, .ffn = 768, .experts = 128, .top_k = 8}, true, rng);
  }
  // An expert count that is no multiple of the router's 8 warps a CTA, and the stream's first norm.
  ok &= check_normed_layer({.tokens = 2, .hidden = 64, .ffn = 48, .experts = 37, .top_k = 5}, false, rng);
  return ok;
}

}  // namespace
}  // namespace cute_cpp::test::moe_block

int main(int argc, char** argv) {
  namespace kn = cute_cpp::kernels;
  using Linked = kn::plans::JoinedPlanLists<kn::plans::DenseAndGrouped, kn::plans::GroupedReLU2Instantiated>::type;
  if (kn::print_plan_kernels(argc, argv, Linked{})) return 0;
  return kn::run_check(
      "moe_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        return cute_cpp::test::moe_block::run_checks(rng, options.has("--small"));
      },
      {"--small"});
}
