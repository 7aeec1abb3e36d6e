// SPDX-License-Identifier: Apache-2.0
// models/nemotron/bench.cpp: cute-cpp-nemotron bench: prefill throughput and decode throughput per
// batch size on random ids, each decode figure beside the limit a step's bytes set at the memory
// rate (runtime.hpp's decode_step_bytes: the weights, the routed experts the batch chooses under
// uniform routing, the conv and SSM states read and written, the attention layers' KV); with
// --breakdown, each batch size's step phase by phase (NemotronModel::profile_decode).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include "models/common/bench_timing.hpp"
#include "models/common/cli.hpp"
#include "models/common/error.hpp"
#include "models/nemotron/model.hpp"
#include "models/qwen3/sampling.hpp"  // sample_tokens (shared)

using namespace cute_cpp::models;

namespace {

/// One printed (and --json) figure; `count`: a phase's runs a step (0 for the others).
struct Figure {
  std::string name, shape;
  double value;
  std::string unit;
  double ms;
  int count = 0;
};

/// The memory rate a step's bytes are set against (H200: 4.8 TB/s on paper, 4.16 measured by a copy).
constexpr double kMemoryRate = 4.16e12;

void write_json(const std::string& path, std::vector<Figure> const& figures) {
  std::ofstream j(path);
  j << "[";
  for (std::size_t i = 0; i < figures.size(); ++i)
    j << (i ? ",\n" : "\n") << "{\"name\": \"" << figures[i].name << "\", \"shape\": \"" << figures[i].shape
      << "\", \"value\": " << figures[i].value << ", \"unit\": \"" << figures[i].unit << "\", \"ms\": " << figures[i].ms
      << ", \"count\": " << figures[i].count << "}";
  j << "\n]\n";
}

}  // namespace

int run_bench(const CliArgs& a) {
  int const prefill_len = int(a.number("prefill-len", 2048));
  int const context = int(a.number("context", 512)), steps = int(a.number("steps", 64));
  std::vector<int> batches;
  for (auto const& p : parse_id_lists(a.has("batches") ? a.get("batches") : "1,32", a))
    for (std::int32_t b : p) batches.push_back(b);
  if (batches.empty() || *std::min_element(batches.begin(), batches.end()) < 1 || prefill_len < 1 || context < 1 ||
      steps < 5)
    throw LoadError(a.rule, "--batches takes positive batch sizes (e.g. 1,8,32), --prefill-len and --context "
                            "positive lengths, --steps at least 5");
  int const max_batch = *std::max_element(batches.begin(), batches.end());
  NemotronOptions o;
  o.cuda_graphs = !a.has("eager");
  o.programmatic_launch = !a.has("no-pdl");
  o.fuse_norms = !a.has("no-fused-norm");
  o.max_batch = max_batch;
  // Each sequence's context, the timed steps, and a token more for each profile after them.
  o.max_seq = std::max(prefill_len, context + steps + 1 + int(a.has("breakdown")) + int(a.has("marginal")));
  o.max_prefill_tokens = std::max(prefill_len, context * max_batch);
  std::optional<std::uint64_t> const seed = random_weights_seed(a);
  auto const load_start = std::chrono::steady_clock::now();
  auto model = seed ? NemotronModel::with_random_weights(a.get("model"), *seed, o) : NemotronModel::load(a.get("model"), o);
  double const load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  int const vocab = int(model->config().vocab_size);
  std::mt19937 rng(1234);
  auto const prompt = [&](int len) {
    std::vector<std::int32_t> p(static_cast<std::size_t>(len));
    for (auto& id : p) id = std::int32_t(rng() % std::uint32_t(vocab));
    return p;
  };
  cute_cpp::host::DeviceBuffer<std::int32_t> next{static_cast<std::size_t>(max_batch)};
  cute_cpp::host::DeviceBuffer<std::byte> ws(sampling_workspace_bytes(max_batch, vocab));
  std::vector<std::int32_t> host_ids(static_cast<std::size_t>(max_batch));
  auto const draw = [&](int rows, std::uint64_t step) {
    sample_tokens(model->logits(), vocab, rows, vocab, SamplingParams{}, step, next.data(), ws.data(), ws.bytes(),
                  model->stream());
    cute_cpp::host::cuda_check(cudaMemcpyAsync(host_ids.data(), next.data(), std::size_t(rows) * sizeof(std::int32_t),
                                               cudaMemcpyDeviceToHost, model->stream()),
                               "cudaMemcpyAsync(ids)");
    cute_cpp::host::cuda_check(cudaStreamSynchronize(model->stream()), "cudaStreamSynchronize");
  };
  std::vector<Figure> figures;
  figures.push_back({seed ? "nemotron random weights" : "nemotron load", seed ? "filled on the device" : "checkpoint",
                     load_s, "s", load_s * 1e3});
  std::printf("weights %.2f GB (%s) in %.2f s; states %.3f GB, KV cache %.2f GB\n", double(model->weight_bytes()) / 1e9,
              seed ? "random, outputs mean nothing" : "checkpoint", load_s, double(model->state_bytes()) / 1e9,
              double(model->kv_cache_bytes()) / 1e9);
  {
    std::vector<std::vector<std::int32_t>> const prompts{prompt(prefill_len)};
    std::vector<double> t;
    for (int r = 0; r < 6; ++r) {
      std::vector<int> slots;
      double const ms = time_ms(model->stream(), [&] { slots = model->prefill(prompts, LogitsRows::Last); });
      model->release(slots[0]);
      if (r > 0) t.push_back(ms);
    }
    double const ms = median(t);
    figures.push_back({"nemotron prefill", "1 x " + std::to_string(prefill_len), prefill_len / ms * 1e3, "tok/s", ms});
  }
  for (int b : batches) {
    std::vector<std::vector<std::int32_t>> prompts;
    for (int i = 0; i < b; ++i) prompts.push_back(prompt(context));
    std::vector<int> const slots = model->prefill(prompts, LogitsRows::Last);
    draw(b, 0);
    std::vector<double> t;
    for (int s = 0; s < steps; ++s) {
      std::vector<std::int32_t> const feed(host_ids.begin(), host_ids.begin() + b);
      double const ms = time_ms(model->stream(), [&] {
        model->decode(slots, feed);
        draw(b, std::uint64_t(s + 1));
      });
      if (s >= 4) t.push_back(ms);
    }
    double const step_ms = median(t);
    if (a.has("breakdown")) {
      // The step after the timed ones, recorded with an event between every two phases, 20 replays.
      std::vector<std::int32_t> const feed(host_ids.begin(), host_ids.begin() + b);
      double total = 0;
      for (NemotronPhase const& p : model->profile_decode(slots, feed, 20)) {
        std::printf("breakdown batch %d: %-22s %9.1f us a step (%d a step)\n", b, p.name.c_str(), p.microseconds,
                    p.count);
        figures.push_back({"nemotron decode phase", "batch " + std::to_string(b) + ", context " +
                                                        std::to_string(context) + ", " + p.name,
                           p.microseconds, "us", p.microseconds / 1e3, p.count});
        total += p.microseconds;
      }
      std::printf("breakdown batch %d: %-22s %9.1f us (the timed step: %.1f us)\n", b, "total", total, step_ms * 1e3);
    }
    if (a.has("marginal")) {
      // The step after the timed ones as the decode graphs run it, whole and without each phase.
      std::vector<std::int32_t> const feed(host_ids.begin(), host_ids.begin() + b);
      MarginalProfile const m = report_marginal(b, [&] { return model->marginal_decode(slots, feed, 20); });
      std::string const shape = "batch " + std::to_string(b) + ", context " + std::to_string(context);
      for (NemotronPhase const& p : m.phases)
        figures.push_back({"nemotron decode marginal phase", shape + ", " + p.name, p.microseconds, "us",
                           p.microseconds / 1e3, p.count});
      if (!m.phases.empty())
        figures.push_back({"nemotron decode marginal step", shape, m.step_microseconds, "us",
                           m.step_microseconds / 1e3});
    }
    for (int s : slots) model->release(s);
    NemotronStepBytes const bytes = decode_step_bytes(model->config(), b, context + steps / 2);
    double const limit_ms = bytes.total() / kMemoryRate * 1e3;
    std::printf("decode batch %d: %.3f ms a step; its bytes: weights %.2f GB, states %.3f GB, KV %.3f GB = %.2f GB, "
                "%.3f ms at %.2f TB/s (%.0f tok/s): %.0f%% of the limit\n",
                b, step_ms, bytes.weights / 1e9, bytes.states / 1e9, bytes.kv / 1e9, bytes.total() / 1e9, limit_ms,
                kMemoryRate / 1e12, b / limit_ms * 1e3, limit_ms / step_ms * 100);
    figures.push_back({"nemotron decode", "batch " + std::to_string(b) + ", context " + std::to_string(context),
                       b / step_ms * 1e3, "tok/s", step_ms});
    figures.push_back({"nemotron decode limit", "batch " + std::to_string(b) + ", context " + std::to_string(context),
                       b / limit_ms * 1e3, "tok/s", limit_ms});
  }
  for (auto const& f : figures)
    std::printf("%s (%s): %.1f %s (%.3f ms)\n", f.name.c_str(), f.shape.c_str(), f.value, f.unit.c_str(), f.ms);
  if (a.has("json")) write_json(a.get("json"), figures);
  return 0;
}
