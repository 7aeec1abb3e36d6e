// SPDX-License-Identifier: Apache-2.0
// cute-cpp-nemotron: the Nemotron-H decoder from the command line.
//   cute-cpp-nemotron logits --model DIR --ids "1,2,3;4,5" --out FILE [--split K | --decode-from K] [--eager]
//   cute-cpp-nemotron generate --model DIR (--ids "1,2;3,4" | --prompt TEXT) [--max-new-tokens N] [...]
//   cute-cpp-nemotron bench --model DIR [--random-weights SEED] [...]
// logits writes the teacher-forced logits of every position of every prompt as float32 [tokens,
// vocab], in prompt order: from one prefill, or with --split K the first K tokens of each prompt
// prefilled and the rest in a second pass that continues the sequences (states and cache carried),
// or with --decode-from K the rest fed one decode step at a time. Errors print their
// `cute-cpp [rule]: ...` message and exit 2.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include "models/common/cli.hpp"
#include "models/common/error.hpp"
#include "models/common/config_reader.hpp"  // config_eos_ids
#include "models/common/tokenizer.hpp"
#include "models/nemotron/model.hpp"
#include "models/qwen3/generate_loop.hpp"  // generate_tokens, GenerateOptions (shared)

namespace {

using namespace cute_cpp::models;
using cute_cpp::host::cuda_check;

constexpr const char* kRuleUsage =
    "cute-cpp [nemotron.usage]: the command line of cute-cpp-nemotron (see its --help)";
constexpr const char* kUsage =
    "usage: cute-cpp-nemotron logits --model DIR --ids \"1,2,3;4,5\" --out FILE [--split K | --decode-from K]\n"
    "                        [--max-seq N] [--eager] [--no-pdl] [--no-fused-norm]\n"
    "       cute-cpp-nemotron generate --model DIR (--ids \"1,2;3,4\" | --prompt TEXT) [--max-new-tokens N]\n"
    "                        [--temperature T] [--top-k K] [--top-p P] [--seed S] [--ignore-eos] [--max-seq N]\n"
    "                        [--max-batch N] [--eager] [--no-pdl] [--no-fused-norm]\n"
    "       cute-cpp-nemotron bench --model DIR [--prefill-len 2048] [--batches 1,32] [--context 512]\n"
    "                        [--steps 64] [--json FILE] [--eager] [--no-pdl] [--no-fused-norm]\n"
    "                        [--random-weights SEED] [--breakdown] [--marginal]\n"
    "--split K: logits: each prompt's first K tokens in one pass, the rest in a second that continues them\n"
    "--decode-from K: logits: each prompt's first K tokens prefilled, the rest fed one decode step at a time\n"
    "--eager: decode steps launch every kernel instead of replaying a CUDA graph\n"
    "--no-pdl: the decode graphs' kernels wait for the one before to end (by default each launches while the one\n"
    "          before runs: programmatic dependent launch)\n"
    "--no-fused-norm: decode steps run each Mamba and attention layer's add + RMSNorm as its own kernel, not\n"
    "          inside the input projection\n"
    "--random-weights SEED: bench only: DIR needs config.json alone; the weights are filled on the device\n"
    "--breakdown: bench only: after each batch size's decode figure, the time of each phase of a step (Mamba-2\n"
    "             mixer parts, MoE router / experts / shared expert / combine, attention, norms, LM head),\n"
    "             from a graph of the step with an event between every two phases (each phase alone, no PDL)\n"
    "--marginal: bench only: after each batch size's decode figure, what each of those phases costs the step as\n"
    "             it runs: the step's graph replayed whole and with the phase's launches disabled\n";

CliArgs parse_args(int argc, char** argv) {
  static const char* const flags[] = {"ignore-eos", "eager", "no-pdl", "no-fused-norm", "breakdown", "marginal"};
  return parse_cli(argc, argv, flags, kRuleUsage, kUsage);
}

std::vector<std::vector<std::int32_t>> ids_of(const CliArgs& a) { return parse_id_lists(a.get("ids"), a); }

/// The program's options: --max-seq, or 4096 tokens within the config's positions.
NemotronOptions model_options(const CliArgs& a, const NemotronHConfig& config) {
  NemotronOptions o;
  o.max_seq = a.has("max-seq") ? int(a.number("max-seq", 0))
                               : int(std::min<std::int64_t>(4096, config.max_position_embeddings));
  o.max_batch = int(a.number("max-batch", 8));
  o.cuda_graphs = !a.has("eager");
  o.programmatic_launch = !a.has("no-pdl");
  o.fuse_norms = !a.has("no-fused-norm");
  return o;
}

/// Rows [first, first + n) of the model's logits as float32, appended to `out`.
void append_logits(NemotronModel& model, int first, int n, std::vector<float>& out) {
  std::size_t const vocab = std::size_t(model.config().vocab_size);
  std::vector<__nv_bfloat16> rows(std::size_t(n) * vocab);
  cuda_check(cudaStreamSynchronize(model.stream()), "cudaStreamSynchronize");
  cuda_check(cudaMemcpy(rows.data(), model.logits() + std::size_t(first) * vocab, rows.size() * sizeof(__nv_bfloat16),
                        cudaMemcpyDeviceToHost),
             "cudaMemcpy(logits)");
  for (__nv_bfloat16 v : rows) out.push_back(__bfloat162float(v));
}

int run_logits(const CliArgs& a) {
  auto const prompts = ids_of(a);
  std::string const out = a.get("out");
  if (a.has("split") && a.has("decode-from"))
    throw LoadError(kRuleUsage, "--split and --decode-from exclude each other");
  int const cut = int(a.has("split") ? a.number("split", 0) : a.number("decode-from", 0));
  bool const two_passes = a.has("split") || a.has("decode-from");
  for (auto const& p : prompts)
    if (two_passes && (cut < 1 || cut >= int(p.size())))
      throw LoadError(kRuleUsage, "--split / --decode-from " + std::to_string(cut) + " must leave tokens on both "
                                  "sides of every prompt (lengths 2 and more, K in [1, length))");
  NemotronHConfig const config = read_nemotron_h_config(a.get("model"));
  NemotronOptions o = model_options(a, config);
  std::size_t total = 0;
  for (auto const& p : prompts) total += p.size();
  o.max_prefill_tokens = int(std::max<std::size_t>(total, 1));
  o.max_batch = std::max(o.max_batch, int(prompts.size()));
  check_prompts(config, o.max_seq, prompts, 0);  // before the weights load
  auto model = NemotronModel::load(a.get("model"), o);
  std::size_t const vocab = std::size_t(model->config().vocab_size);
  // per_prompt[i]: prompt i's rows, in position order.
  std::vector<std::vector<float>> per_prompt(prompts.size());
  if (!two_passes) {
    (void)model->prefill(prompts, LogitsRows::All);
    std::vector<float> all;
    append_logits(*model, 0, model->logits_rows(), all);
    std::size_t at = 0;
    for (std::size_t i = 0; i < prompts.size(); ++i) {
      per_prompt[i].assign(all.begin() + std::ptrdiff_t(at * vocab),
                           all.begin() + std::ptrdiff_t((at + prompts[i].size()) * vocab));
      at += prompts[i].size();
    }
  } else {
    std::vector<std::vector<std::int32_t>> heads, tails;
    for (auto const& p : prompts) {
      heads.emplace_back(p.begin(), p.begin() + cut);
      tails.emplace_back(p.begin() + cut, p.end());
    }
    std::vector<int> const slots = model->prefill(heads, LogitsRows::All);
    for (std::size_t i = 0; i < prompts.size(); ++i) append_logits(*model, int(i) * cut, cut, per_prompt[i]);
    if (a.has("split")) {
      model->extend(slots, tails, LogitsRows::All);
      int row = 0;
      for (std::size_t i = 0; i < prompts.size(); ++i) {
        append_logits(*model, row, int(tails[i].size()), per_prompt[i]);
        row += int(tails[i].size());
      }
    } else {
      // One decode step a position, every unfinished prompt in the same step.
      for (std::size_t step = 0;; ++step) {
        std::vector<int> s;
        std::vector<std::int32_t> ids;
        std::vector<std::size_t> who;
        for (std::size_t i = 0; i < prompts.size(); ++i)
          if (step < tails[i].size()) s.push_back(slots[i]), ids.push_back(tails[i][step]), who.push_back(i);
        if (s.empty()) break;
        model->decode(s, ids);
        for (std::size_t r = 0; r < who.size(); ++r) append_logits(*model, int(r), 1, per_prompt[who[r]]);
      }
    }
  }
  std::ofstream file(out, std::ios::binary);
  for (auto const& rows : per_prompt)
    file.write(reinterpret_cast<const char*>(rows.data()), std::streamsize(rows.size() * sizeof(float)));
  if (!file) throw LoadError(kRuleUsage, "--out: cannot write " + in_quotes(out));
  std::printf("logits: %zu rows x %zu written to %s\n", total, vocab, out.c_str());
  return 0;
}

/// Stop ids: config.json's eos_token_id (a number or a list).
std::vector<std::int32_t> stop_ids(const std::filesystem::path& folder) {
  return config_eos_ids(folder);
}

int run_generate(const CliArgs& a) {
  std::filesystem::path const folder = a.get("model");
  std::optional<Tokenizer> tokenizer;
  std::vector<std::vector<std::int32_t>> prompts;
  if (a.has("ids")) {
    prompts = ids_of(a);
  } else if (a.has("prompt")) {
    if (!std::filesystem::exists(folder / "tokenizer.json"))
      throw LoadError(kRuleUsage, "--prompt needs a tokenizer.json in the model folder; use --ids");
    tokenizer = Tokenizer::from_file(folder);
    prompts.push_back(tokenizer->encode(a.get("prompt")));
  } else {
    throw LoadError(kRuleUsage, std::string("generate needs --ids or --prompt\n") + kUsage);
  }
  GenerateOptions g;
  g.max_new_tokens = int(a.number("max-new-tokens", 128));
  g.sampling.temperature = float(a.real("temperature", 0.0));
  g.sampling.top_k = int(a.number("top-k", 0));
  g.sampling.top_p = float(a.real("top-p", 1.0));
  g.sampling.seed = std::uint64_t(a.number("seed", 0));
  if (!a.has("ignore-eos")) g.stop_ids = stop_ids(folder);
  NemotronHConfig const config = read_nemotron_h_config(folder);
  NemotronOptions o = model_options(a, config);
  std::size_t total = 0;
  for (auto const& p : prompts) total += p.size();
  o.max_prefill_tokens = int(std::max<std::size_t>(total, 1));
  o.max_batch = std::max(o.max_batch, int(prompts.size()));
  check_prompts(config, o.max_seq, prompts, g.max_new_tokens);  // before the weights load
  auto model = NemotronModel::load(folder, o);
  auto const out = generate_tokens(*model, prompts, g);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::printf("ids %zu:", i);
    for (std::int32_t id : out[i]) std::printf(" %d", id);
    std::printf("\n");
    if (tokenizer) std::printf("text %zu: %s\n", i, tokenizer->decode(out[i], true).c_str());
  }
  return 0;
}

}  // namespace

int run_bench(const CliArgs& a);  // bench.cpp

int main(int argc, char** argv) {
  static constexpr CliCommand commands[] = {{"generate", run_generate}, {"logits", run_logits}, {"bench", run_bench, true}};
  return run_cli(argc, argv, parse_args, commands);
}
