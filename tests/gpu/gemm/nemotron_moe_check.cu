// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// nemotron_moe_check: checks the MoE block's sigmoid routing, ReLU^2 experts and shared expert
// (kernels/moe/moe.cuh; Nemotron-H, and DeepSeek-V3's groups with SwiGLU experts) on fresh random
// data with y poisoned, against tests/support/moe_reference.hpp in double: the routing from the
// GPU's f32 logits (each chosen expert among the top k of score + bias within the kept groups, up
// to near-ties; each weight from the unbiased scores), the experts' offsets and rows, and y from the
// GPU's choices with h, the experts' rows and the shared expert's stored as bf16. Also: exact ties
// (all-zero router) give torch.topk's set, one scratch through several token counts, a CUDA graph of
// the block replays bit for bit, and the rules it refuses.
//   nemotron_moe_check [--seed N] [--small]   (--small: the smaller layers, for compute-sanitizer)
// Its timings: bench/gemm/bench_ffn_moe.cu.
#include "tests/gpu/gemm/moe_operands.hpp"
#include "tests/support/check.hpp"
#include "tests/support/cli.hpp"

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

/// The bf16 rounding the kernels apply where they store (h, the experts' rows, the shared row).
double to_bf16(double v) { return val(static_cast<bf16>(static_cast<float>(v))); }

/// Token t's routing by the GPU against the reference on the GPU's logits: how many choices are
/// wrong. A choice may differ from the reference's where values tie to within `near`.
std::size_t bad_choices(moe_ref::Block<bf16> const& b, std::vector<double> const& logits, std::int32_t const* ids,
                        float const* weights) {
  auto const& r = b.routing;
  constexpr double near = 1e-6;
  std::vector<double> choice = moe_ref::choice_values(logits, b.bias);
  std::size_t const size = std::size_t(r.experts / r.groups);
  if (r.groups > 1) {  // groups whose score reaches the topk_group-th best (to within `near`) may be kept
    auto const scores = moe_ref::group_scores(choice, r.groups);
    double const last = scores[std::size_t(moe_ref::top_k_indices(scores, r.top_groups).back())];
    for (std::size_t e = 0; e < choice.size(); ++e)
      if (scores[e / size] < last - near) choice[e] = -INFINITY;
  }
  auto const want = moe_ref::route_sigmoid(logits, b.bias, r);
  double const kth = choice[std::size_t(want.ids.back())];
  double sum = 0;
  for (int j = 0; j < r.top_k; ++j) sum += moe_ref::sigmoid(logits[std::size_t(ids[j])]);
  std::size_t bad = 0;
  for (int j = 0; j < r.top_k; ++j) {
    auto const e = std::size_t(ids[j]);
    bool const valid = e < choice.size() && std::count(ids, ids + r.top_k, ids[j]) == 1;
    double const score = valid ? moe_ref::sigmoid(logits[e]) : 0.0;
    double const w = (r.renormalize ? score / (sum + 1e-20) : score) * r.scaling;
    bad += !(valid && choice[e] >= kth - near && std::fabs(weights[j] - w) <= 1e-6 + 1e-5 * w);
  }
  return bad;
}

/// Every step of the layer against the reference (see the file comment).
bool check_layer(moe::MoeShape const& shape, std::mt19937_64& rng, char const* what) {
  FullLayer l(shape, rng);
  auto const& s = l.s;
  auto const t_count = std::size_t(s.tokens), e_count = std::size_t(s.experts), k = std::size_t(s.top_k);
  l.dy.fill_bytes(0xFF);
  l.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const m = l.carved();
  auto const logits = download(m.logits_f32, t_count * e_count);
  auto const ids = download(m.ids, t_count * k);
  auto const weights = download(m.weights, t_count * k);
  auto const offsets = download(m.offsets, e_count);
  auto const rows = download(m.rows, t_count * k);
  auto const y = l.dy.download();
  auto const b = l.reference();
  auto const x = l.reference_x();
  std::size_t bad_route = 0;
  std::vector<moe_ref::Choice> gpu(t_count);
  for (std::size_t t = 0; t < t_count; ++t) {
    std::vector<double> const row(logits.begin() + std::ptrdiff_t(t * e_count),
                                  logits.begin() + std::ptrdiff_t((t + 1) * e_count));
    bad_route += bad_choices(b, row, &ids[t * k], &weights[t * k]);
    for (std::size_t j = 0; j < k; ++j) gpu[t].ids.push_back(ids[t * k + j]), gpu[t].weights.push_back(weights[t * k + j]);
  }
  // The logits themselves: the f32 GEMM against x Wr^T in double.
  auto const want_logits = moe_ref::linear(x, b.router, s.hidden, s.experts);
  auto const logit_res = kn::check_close(std::span<float const>(logits), std::span<double const>(want_logits), 1e-5, 1e-5);
  // The grouped path's offsets and rows (a decode step's few tokens run the experts without them).
  bool const permuted = s.tokens > moe::moe_decode_tokens;
  std::size_t const bad_rows = permuted ? count_bad_rows(ids, offsets, rows) : 0;
  auto const want = moe_ref::block_output(b, x, gpu, to_bf16);
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  auto const res = kn::check_close(std::span<bf16 const>(y), std::span<double const>(want), 1.0 / 64, scale * 0.01);
  bool const ok = bad_route == 0 && bad_rows == 0 && logit_res.ok() && res.ok();
  std::printf("check moe %-13s T=%-4lld H=%-4lld F=%-4lld Fs=%-4lld E=%-3d k=%-2d groups %d/%d: logits %s, routing %s "
              "(%zu bad), rows %s (%zu bad), y %s\n",
              what, (long long)s.tokens, (long long)s.hidden, (long long)s.ffn, (long long)s.shared_ffn, s.experts,
              s.top_k, s.top_groups, s.groups, logit_res.ok() ? "ok" : "FAILED", bad_route ? "FAILED" : "ok", bad_route,
              bad_rows ? "FAILED" : permuted ? "ok" : "unused", bad_rows, res.summary().c_str());
  return ok;
}

/// All-zero router weights: every logit is 0, every score 0.5; with no bias every expert ties and
/// the choice is experts 0 .. k-1 (torch.topk's set; with groups, the lower groups' first), each
/// weight scaling / k (normalized) or scaling / 2.
bool check_ties(moe::MoeShape s, std::mt19937_64& rng) {
  FullLayer l(s, rng, /*bias_range=*/0.0, /*router_scale=*/0.0);
  l.run();
  host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const m = l.carved();
  auto const k = std::size_t(s.top_k);
  auto const ids = download(m.ids, std::size_t(s.tokens) * k);
  auto const weights = download(m.weights, std::size_t(s.tokens) * k);
  float const weight = s.renormalize ? s.routed_scaling / float(k) : 0.5f * s.routed_scaling;
  std::size_t bad = 0;
  for (std::size_t t = 0; t < std::size_t(s.tokens); ++t) {
    std::vector<std::int32_t> mine(ids.begin() + std::ptrdiff_t(t * k), ids.begin() + std::ptrdiff_t((t + 1) * k));
    std::sort(mine.begin(), mine.end());
    for (std::size_t j = 0; j < k; ++j)
      bad += mine[j] != std::int32_t(j) || std::fabs(weights[t * k + j] - weight) > 1e-6f;
  }
  std::printf("check moe ties (all logits 0, E=%d k=%d groups %d/%d): experts 0..k-1 %s (%zu bad)\n", s.experts,
              s.top_k, s.top_groups, s.groups, bad ? "FAILED" : "ok", bad);
  return bad == 0;
}

/// The layer replayed from a CUDA graph (no host synchronization inside it) gives y bit for bit.
bool check_graph(moe::MoeShape const& s, std::mt19937_64& rng) {
  FullLayer l(s, rng);
  cudaStream_t stream = nullptr;
  host::cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  l.run(stream);
  host::cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  auto const direct = l.dy.download();
  l.dy.fill_bytes(0xFF);
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  host::cuda_check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture");
  l.run(stream);
  host::cuda_check(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  host::cuda_check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  host::cuda_check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
  host::cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  auto const replayed = l.dy.download();
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  bool const same = std::memcmp(direct.data(), replayed.data(), direct.size() * sizeof(bf16)) == 0;
  std::printf("check moe T=%lld in a CUDA graph: %s\n", (long long)s.tokens,
              same ? "ok (bit-identical to the direct run)" : "FAILED (differs)");
  return same;
}

/// One scratch through T = 24, 1500, 24 (the f32 router splits K at 24): the second pass gives the
/// first's y bit for bit (the split-K counters stay where the kernels left them zero).
bool check_scratch_reuse(std::mt19937_64& rng) {
  moe::MoeShape few = nemotron3_nano_shape(24);
  few.hidden = 2048, few.ffn = 128, few.shared_ffn = 256, few.experts = 64, few.top_k = 4;
  moe::MoeShape many = few;
  many.tokens = 1500;
  FullLayer l(many, rng);
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
  std::printf("check moe sigmoid: one scratch for T=24, 1500, 24: the second T=24 pass %s\n",
              same ? "ok (bit-identical)" : "FAILED (differs from the first)");
  return same;
}

/// The rules the block refuses, each by its id.
bool check_rejections() {
  auto const refused = [](char const* rule, char const* what, auto&& call) {
    try {
      call();
    } catch (std::invalid_argument const& e) {
      bool const named = std::string(e.what()).find(std::string("[") + rule + "]") != std::string::npos;
      std::printf("check moe rejects %s [%s] %s\n", what, rule, named ? "ok" : "FAILED: another error");
      return named;
    }
    std::printf("check moe rejects %s [%s] FAILED: no error\n", what, rule);
    return false;
  };
  auto grouped = nemotron3_nano_shape(4);
  grouped.groups = 3;
  auto softmax = nemotron3_nano_shape(4);
  softmax.routing = moe::MoeRouting::softmax;
  bool ok = refused("moe.routing", "3 groups of 128 experts", [&] { (void)moe::moe_scratch_bytes(grouped); });
  ok &= refused("moe.routing", "softmax routing with a scaling", [&] { (void)moe::moe_scratch_bytes(softmax); });
  auto bad_shared = nemotron3_nano_shape(4);
  bad_shared.shared_ffn = 100;
  ok &= refused("moe.shape", "a shared FFN of 100", [&] { (void)moe::moe_scratch_bytes(bad_shared); });
  std::mt19937_64 rng(1);
  auto small = nemotron3_nano_shape(4);
  small.hidden = 64, small.ffn = 64, small.shared_ffn = 64, small.experts = 8, small.top_k = 2;
  FullLayer l(small, rng);
  auto w = l.weights();
  w.shared_down = nullptr;
  ok &= refused("moe.pointers", "a missing shared down weight",
                [&] { moe::moe_layer(l.dx.data(), w, small, l.dy.data(), l.scratch.data()); });
  return ok;
}

bool run_checks(std::mt19937_64& rng, bool small) {
  bool ok = check_rejections();
  // Small layers of other counts: groups (DeepSeek-V3's rule), no normalization, SwiGLU experts.
  moe::MoeShape relu_groups = nemotron3_nano_shape(37);
  relu_groups.hidden = 128, relu_groups.ffn = 64, relu_groups.shared_ffn = 96, relu_groups.experts = 40;
  relu_groups.top_k = 3, relu_groups.groups = 4, relu_groups.top_groups = 2, relu_groups.renormalize = false;
  relu_groups.routed_scaling = 1.5f;
  ok &= check_layer(relu_groups, rng, "relu2 groups");
  moe::MoeShape swiglu = relu_groups;
  swiglu.tokens = 70, swiglu.hidden = 256, swiglu.ffn = 64, swiglu.shared_ffn = 128, swiglu.experts = 64;
  swiglu.top_k = 8, swiglu.groups = 8, swiglu.top_groups = 4, swiglu.renormalize = true, swiglu.routed_scaling = 2.5f;
  swiglu.activation = moe::MoeActivation::swiglu;
  ok &= check_layer(swiglu, rng, "swiglu groups");
  moe::MoeShape no_shared = relu_groups;
  no_shared.shared_ffn = 0;
  ok &= check_layer(no_shared, rng, "relu2 unshared");
  ok &= check_ties(relu_groups, rng);
  moe::MoeShape plain_ties = nemotron3_nano_shape(5);
  plain_ties.hidden = 64, plain_ties.ffn = 64, plain_ties.shared_ffn = 64;
  ok &= check_ties(plain_ties, rng);
  ok &= check_graph(relu_groups, rng);
  if (!small) {
    // Nemotron-3 Nano's block: decode at batch 1, 3 and 32 (the routed experts in 64-row tiles; the
    // shared expert on the dense dispatch: the skinny GEMV at 1 and 3 rows, a swapped tile with
    // split-K on the router's workspace at 32) and a prefill T that is no multiple of a tile.
    ok &= check_layer(nemotron3_nano_shape(1), rng, "nemotron-nano");
    ok &= check_layer(nemotron3_nano_shape(3), rng, "nemotron-nano");
    ok &= check_layer(nemotron3_nano_shape(32), rng, "nemotron-nano");
    ok &= check_layer(nemotron3_nano_shape(131), rng, "nemotron-nano");
    ok &= check_scratch_reuse(rng);
    ok &= check_graph(nemotron3_nano_shape(8), rng);
  }
  return ok;
}

}  // namespace
}  // namespace cute_cpp::test::moe_block

int main(int argc, char** argv) {
  namespace kn = cute_cpp::kernels;
  using Plans = kn::plans::JoinedPlanLists<kn::plans::DenseAndGrouped, kn::plans::GroupedReLU2Instantiated>::type;
  if (kn::print_plan_kernels(argc, argv, Plans{})) return 0;
  return kn::run_check(
      "nemotron_moe_check", argc, argv,
      [](std::mt19937_64& rng, kn::ProgramOptions const& options) {
        return cute_cpp::test::moe_block::run_checks(rng, options.has("--small"));
      },
      {"--small"});
}
