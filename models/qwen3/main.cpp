// SPDX-License-Identifier: Apache-2.0
// cute-cpp-qwen3: the Qwen3 decoder from the command line.
//   cute-cpp-qwen3 generate --model DIR (--prompt TEXT | --chat TEXT | --ids "1,2;3,4") [--max-new-tokens N]
//                  [--temperature T] [--top-k K] [--top-p P] [--seed S] [--ignore-eos] [--max-seq N]
//                  [--tensor-parallel N]
//   cute-cpp-qwen3 logits --model DIR --ids "1,2,3;4,5" --out FILE [--max-seq N]
//   cute-cpp-qwen3 bench --model DIR [--random-weights SEED] [...]
// generate prints `ids i: ...` per prompt (and its text with a tokenizer); logits writes the
// teacher-forced logits of every position of every prompt as float32 [tokens, vocab]; bench prints
// the prefill, first-token and decode figures (with --random-weights, of config.json alone and
// weights filled on the device). Errors print their `cute-cpp [rule]: ...` message and exit 2.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include "models/common/bench_timing.hpp"
#include "models/common/cli.hpp"
#include "models/common/error.hpp"
#include "models/common/config_reader.hpp"  // config_eos_ids
#include "models/common/tokenizer.hpp"
#include "models/qwen3/chat.hpp"
#include "models/qwen3/generate.hpp"
#include "models/qwen3/model.hpp"
#include "models/qwen3/tensor_parallel.hpp"  // check_tensor_parallel
#include "models/qwen3/tensor_parallel_model.hpp"  // load_tensor_parallel

namespace {

using namespace cute_cpp::models;

constexpr const char* kRuleUsage = "cute-cpp [qwen3.usage]: the command line of cute-cpp-qwen3 (see its --help)";
constexpr const char* kUsage =
    "usage: cute-cpp-qwen3 generate --model DIR (--prompt TEXT | --chat TEXT | --ids \"1,2;3,4\")\n"
    "                      [--max-new-tokens N] [--temperature T] [--top-k K] [--top-p P] [--seed S]\n"
    "                      [--ignore-eos] [--max-seq N] [--max-batch N] [--eager] [--no-pdl] [--routing-stats]\n"
    "                      [--fused-steps] [--random-weights SEED]\n"
    "                      [--tensor-parallel N [--tensor-parallel-emulate | --tensor-parallel-nccl]]\n"
    "       cute-cpp-qwen3 logits --model DIR --ids \"1,2,3;4,5\" --out FILE [--max-seq N] [--routing-stats]\n"
    "                      [--random-weights SEED]\n"
    "                      [--tensor-parallel N [--tensor-parallel-emulate | --tensor-parallel-nccl]]\n"
    "       cute-cpp-qwen3 bench --model DIR [--prefill-len 2048] [--ttft-len 512] [--batches 1,32]\n"
    "                      [--context 512] [--steps 64] [--json FILE] [--eager] [--no-pdl | --no-prefetch]\n"
    "                      [--no-fused-norm] [--fused-dense-norm] [--fused-steps]\n"
    "                      [--profile] [--marginal] [--random-weights SEED] [--tensor-parallel N]\n"
    "--eager: decode steps launch every kernel instead of replaying a CUDA graph\n"
    "--no-pdl: the decode graphs' kernels do not launch while the one before runs (programmatic\n"
    "          dependent launch, on by default)\n"
    "--no-prefetch: the GEMMs do not load their first weight tiles (the GEMV: its first round of weight\n"
    "          loads) before waiting for the kernel before\n"
    "--no-fused-norm: decode steps run a Qwen3-MoE router's RMSNorm as its own kernel, not inside the router\n"
    "--fused-dense-norm: decode steps run the RMSNorms before the QKV and dense gate-up projections inside\n"
    "          them (by default each its own kernel: faster at batch 1)\n"
    "--fused-steps: a decode step of one sequence runs as one launch (models/qwen3/fused_step.hpp) where it\n"
    "          takes the model (dense, one GPU); generate and bench\n"
    "--profile: after each batch size's decode figure, the time of each phase of a step (an event between\n"
    "          every two phases, so each runs alone, without PDL)\n"
    "--marginal: after each batch size's decode figure, what each phase costs the step as it runs: the\n"
    "          step's graph replayed whole and with the phase's launches disabled (one GPU)\n"
    "--routing-stats: Qwen3-MoE: per pass and layer, the choices each expert received (to stderr;\n"
    "          decode steps then run eagerly)\n"
    "--random-weights SEED: DIR needs config.json alone (generate: with --ids and --ignore-eos); the weights,\n"
    "          at the checkpoint's shapes, are filled on the device from SEED (bench's figures do not depend on\n"
    "          the values; they are the same at any --tensor-parallel N, for the checks)\n"
    "--tensor-parallel N: the model split over N GPUs of this host (default 1), one rank a GPU, over NCCL\n"
    "          (CUTE_CPP_NCCL names libnccl.so.2 if the loader cannot find it)\n"
    "--tensor-parallel-emulate: the N ranks on one GPU, the collectives done by the host and every launch\n"
    "          eager: the per-rank model checked on one GPU (slow; for checks, not for timing)\n"
    "--tensor-parallel-nccl: the per-rank model over NCCL even at N = 1 (a communicator of one rank)\n";

constexpr const char* kRuleGpus = "cute-cpp [tp.gpus]: --tensor-parallel may use at most the GPUs present";
constexpr const char* kRuleEmulate =
    "cute-cpp [tp.emulate]: --tensor-parallel-emulate and --tensor-parallel-nccl choose the collectives: one at most";

using Args = CliArgs;

Args parse_args(int argc, char** argv) {
  static const char* const flags[] = {"ignore-eos",       "eager",         "no-pdl",
                                      "no-prefetch",      "no-fused-norm", "fused-dense-norm",
                                      "profile",          "marginal",      "routing-stats",
                                      "tensor-parallel-emulate",           "tensor-parallel-nccl",
                                      "fused-steps"};
  return parse_cli(argc, argv, flags, kRuleUsage, kUsage);
}

/// --tensor-parallel N and its collectives, before any GPU work: N = 1 alone (the default) is the
/// one-device model (nullopt); any other N must suit the model (check_tensor_parallel's tp.* rules),
/// and over NCCL the GPUs present (emulated, one GPU holds every rank).
std::optional<TensorParallelOptions> tensor_parallel_option(const Args& a) {
  long long const ranks = a.number("tensor-parallel", 1);
  bool const emulate = a.has("tensor-parallel-emulate"), nccl = a.has("tensor-parallel-nccl");
  if (emulate && nccl) throw LoadError(kRuleEmulate, "both were given");
  if (ranks == 1 && !emulate && !nccl) return std::nullopt;
  Qwen3Config const config = read_qwen3_config(a.get("model"));
  check_tensor_parallel(config, ranks);
  std::string const option = "--tensor-parallel " + std::to_string(ranks);
  int gpus = 0;
  if (cudaError_t const e = cudaGetDeviceCount(&gpus); e != cudaSuccess)
    throw LoadError(kRuleGpus, option + ": no GPU found (cudaGetDeviceCount: " + cudaGetErrorName(e) + ", " +
                                   cudaGetErrorString(e) + ")");
  if (!emulate) check_tensor_parallel_gpus(config, ranks, gpus);
  return TensorParallelOptions{.ranks = int(ranks), .emulate = emulate, .random_seed = std::nullopt};
}

/// The model of --model: one device, or split as --tensor-parallel says; random weights from `seed`.
std::unique_ptr<Qwen3Model> load_model(const std::optional<TensorParallelOptions>& tp,
                                       const std::filesystem::path& folder, const Qwen3Options& o,
                                       std::optional<std::uint64_t> seed) {
  if (tp) {
    TensorParallelOptions t = *tp;
    t.random_seed = seed;
    return load_tensor_parallel(folder, o, t);
  }
  return seed ? Qwen3Model::with_random_weights(folder, *seed, o) : Qwen3Model::load(folder, o);
}

/// The logits of the last pass on the host, [rows, vocab] row-major whatever the ranks.
std::vector<__nv_bfloat16> host_logits(const Qwen3Model& model) {
  int const rows = model.logits_rows();
  std::int64_t const vocab = model.config().vocab_size;
  LogitsLayout const layout = model.logits_layout();
  std::vector<__nv_bfloat16> raw(std::size_t(logit_offset(layout, rows - 1, vocab - 1) + 1));
  cute_cpp::host::cuda_check(cudaStreamSynchronize(model.stream()), "cudaStreamSynchronize");
  cute_cpp::host::cuda_check(
      cudaMemcpy(raw.data(), model.logits(), raw.size() * sizeof(__nv_bfloat16), cudaMemcpyDeviceToHost),
      "cudaMemcpy(logits)");
  return unshard_logits(std::span<const __nv_bfloat16>(raw), layout, rows, vocab);
}

/// "1,2,3;4,5" -> {{1,2,3},{4,5}}.
std::vector<std::vector<std::int32_t>> parse_ids(const std::string& text) {
  CliArgs a;
  a.rule = kRuleUsage;
  return parse_id_lists(text, a);
}

/// How decode steps run, from the flags every command takes alike (generate, logits, bench).
void set_step_options(const Args& a, Qwen3Options& o) {
  o.cuda_graphs = !a.has("eager");
  o.programmatic_launch = !a.has("no-pdl");
  o.prefetch_weights = !a.has("no-prefetch");
  o.fuse_norms = !a.has("no-fused-norm");
  o.fuse_dense_norms = a.has("fused-dense-norm");
  o.fused_steps = a.has("fused-steps");
}

Qwen3Options model_options(const Args& a) {
  Qwen3Options o;
  o.max_seq = int(a.number("max-seq", 0));
  o.max_batch = int(a.number("max-batch", 8));
  set_step_options(a, o);
  o.routing_stats = a.has("routing-stats");
  return o;
}

/// Stop ids: the chat's (<|im_end|>, <|endoftext|>) with a tokenizer, else config.json's eos_token_id.
std::vector<std::int32_t> stop_ids(const std::filesystem::path& folder, const Tokenizer* tokenizer) {
  if (tokenizer != nullptr) {
    try {
      Qwen3Chat const chat(*tokenizer);
      return {chat.stop_ids().begin(), chat.stop_ids().end()};
    } catch (const LoadError&) {
      // a tokenizer without the chat tokens: fall back to the config
    }
  }
  return config_eos_ids(folder);
}

int run_logits(const Args& a) {
  std::optional<TensorParallelOptions> const tp = tensor_parallel_option(a);
  auto const prompts = parse_ids(a.get("ids"));
  std::string const out = a.get("out");
  Qwen3Options o = model_options(a);
  std::size_t total = 0;
  for (auto const& p : prompts) total += p.size();
  o.max_prefill_tokens = int(std::max<std::size_t>(total, 1));
  o.max_batch = std::max(o.max_batch, int(prompts.size()));
  check_prompts(read_qwen3_config(a.get("model")), o.max_seq, prompts, 0);  // before the weights load
  auto model = load_model(tp, a.get("model"), o, random_weights_seed(a));
  (void)model->prefill(prompts, LogitsRows::All);
  std::size_t const vocab = std::size_t(model->config().vocab_size);
  std::vector<__nv_bfloat16> const logits = host_logits(*model);
  std::vector<float> f(logits.size());
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = __bfloat162float(logits[i]);
  std::ofstream file(out, std::ios::binary);
  file.write(reinterpret_cast<const char*>(f.data()), std::streamsize(f.size() * sizeof(float)));
  if (!file) throw LoadError(kRuleUsage, "--out: cannot write " + in_quotes(out));
  std::printf("logits: %d rows x %zu written to %s\n", model->logits_rows(), vocab, out.c_str());
  return 0;
}

int run_generate(const Args& a) {
  std::optional<TensorParallelOptions> const tp = tensor_parallel_option(a);
  std::filesystem::path const folder = a.get("model");
  std::optional<Tokenizer> tokenizer;
  if (std::filesystem::exists(folder / "tokenizer.json")) tokenizer = Tokenizer::from_file(folder);
  std::vector<std::vector<std::int32_t>> prompts;
  if (a.has("ids")) {
    prompts = parse_ids(a.get("ids"));
  } else if (a.has("prompt") || a.has("chat")) {
    if (!tokenizer) throw LoadError(kRuleUsage, "--prompt and --chat need a tokenizer.json in the model folder; use --ids");
    if (a.has("chat")) {
      ChatMessage const m{ChatRole::user, a.get("chat")};
      prompts.push_back(Qwen3Chat(*tokenizer).encode(std::span<const ChatMessage>(&m, 1)));
    } else {
      prompts.push_back(tokenizer->encode(a.get("prompt")));
    }
  } else {
    throw LoadError(kRuleUsage, std::string("generate needs --ids, --prompt or --chat\n") + kUsage);
  }
  GenerateOptions g;
  g.max_new_tokens = int(a.number("max-new-tokens", 128));
  g.sampling.temperature = float(a.real("temperature", 0.0));
  g.sampling.top_k = int(a.number("top-k", 0));
  g.sampling.top_p = float(a.real("top-p", 1.0));
  g.sampling.seed = std::uint64_t(a.number("seed", 0));
  if (!a.has("ignore-eos")) g.stop_ids = stop_ids(folder, tokenizer ? &*tokenizer : nullptr);
  Qwen3Options o = model_options(a);
  std::size_t total = 0;
  for (auto const& p : prompts) total += p.size();
  o.max_prefill_tokens = int(std::max<std::size_t>(total, 1));
  o.max_batch = std::max(o.max_batch, int(prompts.size()));
  check_prompts(read_qwen3_config(folder), o.max_seq, prompts, g.max_new_tokens);  // before the weights load
  auto model = load_model(tp, folder, o, random_weights_seed(a));
  // One prompt with a tokenizer: its text streams as the tokens come. Decoding the whole
  // continuation each time and printing what is new keeps a character whose bytes span tokens
  // whole: a text ending in U+FFFD (an incomplete character so far) waits for the next token.
  std::vector<std::int32_t> streamed;
  std::size_t printed = 0;
  if (tokenizer && prompts.size() == 1) {
    g.on_token = [&](int, std::int32_t id) {
      streamed.push_back(id);
      std::string const text = tokenizer->decode(streamed, true);
      if (text.size() >= 3 && text.compare(text.size() - 3, 3, "\xEF\xBF\xBD") == 0) return;
      if (text.size() > printed) std::fputs(text.c_str() + printed, stdout);
      std::fflush(stdout);
      printed = text.size();
    };
  }
  auto const out = generate(*model, prompts, g);
  if (!streamed.empty()) std::printf("\n");
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::printf("ids %zu:", i);
    for (std::int32_t id : out[i]) std::printf(" %d", id);
    std::printf("\n");
    if (tokenizer) std::printf("text %zu: %s\n", i, tokenizer->decode(out[i], true).c_str());
  }
  return 0;
}

/// Milliseconds of `f()` on the model's stream (bench_timing.hpp).
template <class F>
double time_ms(Qwen3Model& model, F&& f) {
  return cute_cpp::models::time_ms(model.stream(), std::forward<F>(f));
}

/// Prefill throughput, time to first token and decode throughput per batch size, on random ids
/// (the figures do not depend on the ids). Each figure is the median of several runs after one
/// warm-up; decode steps include drawing the token (greedy) and reading it back, as generate does.
/// The most tokens one of the bench's batch prefills takes (the figures are the decode steps').
constexpr int kBenchPrefillTokens = 8192;

int run_bench(const Args& a) {
  std::optional<TensorParallelOptions> const tp = tensor_parallel_option(a);
  int const prefill_len = int(a.number("prefill-len", 2048)), ttft_len = int(a.number("ttft-len", 512));
  int const context = int(a.number("context", 512)), steps = int(a.number("steps", 64));
  // The first four decode steps are warm-up; the figure is the median of the rest.
  if (steps < 5) throw LoadError(kRuleUsage, "--steps must be at least 5 (4 warm-up steps, then the timed ones)");
  std::vector<int> batches;
  for (auto const& p : parse_ids(a.has("batches") ? a.get("batches") : "1,32"))
    for (std::int32_t b : p) batches.push_back(b);
  if (batches.empty() || *std::min_element(batches.begin(), batches.end()) < 1)
    throw LoadError(kRuleUsage, "--batches takes positive batch sizes, e.g. 1,8,32");
  int const max_batch = *std::max_element(batches.begin(), batches.end());
  Qwen3Options o;
  set_step_options(a, o);
  o.max_batch = max_batch;
  // A sequence holds its context, the timed steps, and a token more for each profile after them
  // (--profile's and --marginal's each stage one).
  int const held = context + steps + 1 + int(a.has("profile")) + int(a.has("marginal"));
  o.max_seq = std::max(prefill_len, held);
  // The cache pages the figures hold at once (each figure releases its sequences): one prompt of the
  // longest prefill, or the largest batch of contexts with their steps; not max_batch x max_seq,
  // which would put Qwen3-30B-A3B's batch 128 at 2048 tokens a sequence (26 GB) beside its weights.
  auto const pages = [&](int tokens) { return (tokens + o.page_size - 1) / o.page_size; };
  o.num_pages = std::max(pages(std::max(prefill_len, ttft_len)), max_batch * pages(held));
  // A batch's contexts are prefilled in groups of at most this many tokens: one prefill of all 128
  // contexts of 512 would hold 64k tokens' activations beside the weights (Qwen3-30B-A3B on an H100).
  o.max_prefill_tokens = std::max({prefill_len, ttft_len, std::min(context * max_batch, kBenchPrefillTokens)});
  std::optional<std::uint64_t> const random_seed = random_weights_seed(a);
  auto const load_start = std::chrono::steady_clock::now();
  auto model = load_model(tp, a.get("model"), o, random_seed);
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
  SamplingParams const greedy{};
  auto const draw = [&](int rows, std::uint64_t step) {
    sample_model_tokens(*model, rows, greedy, step, next.data(), ws.data(), ws.bytes());
    cute_cpp::host::cuda_check(cudaMemcpyAsync(host_ids.data(), next.data(), std::size_t(rows) * sizeof(std::int32_t),
                                               cudaMemcpyDeviceToHost, model->stream()),
                               "cudaMemcpyAsync(ids)");
    cute_cpp::host::cuda_check(cudaStreamSynchronize(model->stream()), "cudaStreamSynchronize");
  };
  struct Figure {
    std::string name, shape;
    double value;
    std::string unit;
    double ms;
    int count = 0;  ///< a decode phase's launches a step (0 for the other figures)
  };
  std::vector<Figure> figures;
  if (random_seed) {
    figures.push_back({"qwen3 random weights", "filled on the device", load_s, "s", load_s * 1e3});
    std::printf("weights: random (seed %llu), %.2f GB filled on the device in %.2f s; the figures are those of a "
                "checkpoint of this config, the outputs mean nothing\n",
                static_cast<unsigned long long>(*random_seed), double(model->weight_bytes()) / 1e9, load_s);
  } else {
    figures.push_back({"qwen3 load", "checkpoint to device", load_s, "s", load_s * 1e3});
    std::printf("load: %.2f s for %.2f GB of weights (%.2f GB/s; the page cache may hold the files)\n", load_s,
                double(model->weight_bytes()) / 1e9, double(model->weight_bytes()) / 1e9 / load_s);
  }
  auto const prefill_figure = [&](int len, bool first_token) {
    std::vector<std::vector<std::int32_t>> const prompts{prompt(len)};
    std::vector<double> t;
    for (int r = 0; r < 6; ++r) {
      std::vector<int> slots;
      double const ms = time_ms(*model, [&] {
        slots = model->prefill(prompts, LogitsRows::Last);
        if (first_token) draw(1, 0);
      });
      model->release(slots[0]);
      if (r > 0) t.push_back(ms);
    }
    return median(t);
  };
  double const prefill_ms = prefill_figure(prefill_len, false);
  figures.push_back({"qwen3 prefill", "1 x " + std::to_string(prefill_len), prefill_len / prefill_ms * 1e3, "tok/s",
                     prefill_ms});
  double const ttft_ms = prefill_figure(ttft_len, true);
  figures.push_back({"qwen3 time to first token", "1 x " + std::to_string(ttft_len), ttft_ms, "ms", ttft_ms});
  for (int b : batches) {
    std::vector<int> slots;
    int const group = std::max(1, int(o.max_prefill_tokens / context));
    for (int first = 0; first < b; first += group) {
      std::vector<std::vector<std::int32_t>> prompts;
      for (int i = first; i < std::min(b, first + group); ++i) prompts.push_back(prompt(context));
      for (int slot : model->prefill(prompts, LogitsRows::Last)) slots.push_back(slot);
    }
    // The first fed ids are random (the logits of the groups before the last are overwritten).
    for (int i = 0; i < b; ++i) host_ids[std::size_t(i)] = std::int32_t(rng() % std::uint32_t(vocab));
    std::vector<double> t;
    for (int s = 0; s < steps; ++s) {
      std::vector<std::int32_t> const feed(host_ids.begin(), host_ids.begin() + b);
      double const ms = time_ms(*model, [&] {
        model->decode(slots, feed);
        draw(b, std::uint64_t(s + 1));
      });
      if (s >= 4) t.push_back(ms);
    }
    if (a.has("profile")) {
      std::vector<std::int32_t> const feed(host_ids.begin(), host_ids.begin() + b);
      double total = 0.0;
      for (StepPhase const& phase : model->profile_decode(slots, feed, 20)) {
        std::printf("profile batch %d: %-18s %8.1f us per step (%d per step)\n", b, phase.name.c_str(), phase.microseconds,
                    phase.count);
        figures.push_back({"qwen3 decode phase",
                           "batch " + std::to_string(b) + ", context " + std::to_string(context) + ", " + phase.name,
                           phase.microseconds, "us", phase.microseconds / 1e3, phase.count});
        total += phase.microseconds;
      }
      std::printf("profile batch %d: %-18s %8.1f us\n", b, "total", total);
    }
    if (a.has("marginal")) {
      std::vector<std::int32_t> const feed(host_ids.begin(), host_ids.begin() + b);
      MarginalProfile const m = report_marginal(b, [&] { return model->marginal_decode(slots, feed, 20); });
      std::string const shape = "batch " + std::to_string(b) + ", context " + std::to_string(context);
      for (StepPhase const& phase : m.phases)
        figures.push_back({"qwen3 decode marginal phase", shape + ", " + phase.name, phase.microseconds, "us",
                           phase.microseconds / 1e3, phase.count});
      if (!m.phases.empty())
        figures.push_back({"qwen3 decode marginal step", shape, m.step_microseconds, "us", m.step_microseconds / 1e3});
    }
    for (int s : slots) model->release(s);
    double const step_ms = median(t);
    figures.push_back({"qwen3 decode", "batch " + std::to_string(b) + ", context " + std::to_string(context),
                       b / step_ms * 1e3, "tok/s", step_ms});
  }
  std::size_t free_bytes = 0, total_bytes = 0;
  cute_cpp::host::cuda_check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  std::printf("weights %.2f GB, KV cache %.2f GB, device memory in use %.2f GB\n", double(model->weight_bytes()) / 1e9,
              double(model->kv_cache_bytes()) / 1e9, double(total_bytes - free_bytes) / 1e9);
  for (auto const& f : figures)
    std::printf("%s (%s): %.1f %s (%.3f ms)\n", f.name.c_str(), f.shape.c_str(), f.value, f.unit.c_str(), f.ms);
  if (a.has("json")) {
    std::ofstream j(a.get("json"));
    j << "[";
    for (std::size_t i = 0; i < figures.size(); ++i)
      j << (i ? ",\n" : "\n") << "{\"name\": \"" << figures[i].name << "\", \"shape\": \"" << figures[i].shape
        << "\", \"value\": " << figures[i].value << ", \"unit\": \"" << figures[i].unit << "\", \"ms\": " << figures[i].ms
        << ", \"count\": " << figures[i].count << "}";
    j << "\n]\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // Every command takes --random-weights: the tensor-parallel checks compare the logits and greedy ids of
  // the published configs' widths at N ranks with one device's, on random weights (check_qwen3_tp.py).
  static constexpr CliCommand commands[] = {
      {"generate", run_generate, true}, {"logits", run_logits, true}, {"bench", run_bench, true}};
  return run_cli(argc, argv, parse_args, commands);
}
