// SPDX-License-Identifier: Apache-2.0
// cute-cpp-tts: Qwen3-TTS's talker and code predictor from the command line.
//   cute-cpp-tts logits --model DIR (--text TEXT | --ids "1,2,...") --codes "c0,...,c15" --out FILE [prompt options]
//   cute-cpp-tts codes --model DIR (--text TEXT | --ids "...") [--greedy] [--seed S] [--max-new-tokens N]
//                      [--out FILE] [prompt options]
//   cute-cpp-tts synthesize --model DIR --text TEXT --out speech.wav [prompt options]
//   cute-cpp-tts prompt --model DIR (--text TEXT | --ids "...") [prompt options]
//   cute-cpp-tts bench --model DIR [--random-weights SEED] [--frames N] [--batch B] [--json FILE] (tts_bench.cpp)
// prompt options: --speaker NAME, --language NAME (default auto), --instruct TEXT (with --text) or
// --instruct-ids "..." (with --ids), --streaming. prompt prints the talker's input rows as JSON
// ({"rows": [[text id, codec id], ...], "trailing": [...], "pad": id}; -1: no part), no GPU needed.
// --ids is the tokenized assistant text (prompt.hpp's assistant_text), for folders without a
// tokenizer.json. logits writes float32: the talker's logits of every prompt row [rows, codec vocab],
// then the code predictor's, teacher-forced on the last row's hidden state and --codes,
// [groups - 1, codebook entries]; it prints the row count. codes prints (or writes) the codes as
// [groups, frames]: one line per codebook. Errors print their `cute-cpp [rule]: ...` message and exit 2.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "models/common/cli.hpp"
#include "models/common/error.hpp"
#include "models/common/tokenizer_files.hpp"
#include "models/qwen3_tts/model.hpp"
#include "models/qwen3_tts/prompt.hpp"
#include "models/qwen3_tts/synthesize.hpp"
#include "models/qwen3_tts/tts_cli.hpp"

namespace {

using namespace cute_cpp::models;
using namespace cute_cpp::models::qwen3_tts;

constexpr const char* kUsage =
    "usage: cute-cpp-tts logits --model DIR (--text TEXT | --ids \"1,2,...\") --codes \"c0,...,c15\" --out FILE\n"
    "                           [prompt options] [--random-weights SEED]\n"
    "       cute-cpp-tts codes --model DIR (--text TEXT | --ids \"1,2,...\") [--greedy] [--seed S]\n"
    "                          [--max-new-tokens N] [--out FILE] [--eager] [--no-pdl] [--fused-steps] [prompt options]\n"
    "                          [--random-weights SEED]\n"
    "       cute-cpp-tts synthesize --model DIR --text TEXT --out speech.wav [prompt options]\n"
    "       cute-cpp-tts prompt --model DIR (--text TEXT | --ids \"1,2,...\") [prompt options]\n"
    "       cute-cpp-tts bench --model DIR [--random-weights SEED] [--text TEXT | --ids \"...\"] [--frames 125]\n"
    "                          [--batch 8] [--runs 5] [--stream-chunk 1] [--left-context 25] [--greedy]\n"
    "                          [--breakdown] [--marginal] [--fused-steps] [--json FILE] [prompt options]\n"
    "prompt options: --speaker NAME  --language NAME (auto)  --instruct TEXT (or --instruct-ids \"...\")  --streaming\n"
    "--ids: the tokenized \"<|im_start|>assistant\\n{text}<|im_end|>\\n<|im_start|>assistant\\n\" (no tokenizer.json needed)\n"
    "--greedy: the argmax of each code after the same logit processors (else the sampling of\n"
    "          generation_config.json, or the reference's defaults: top-k 50, temperature 0.9,\n"
    "          repetition penalty 1.05; the code predictor: top-k 50, temperature 0.9)\n"
    "--random-weights SEED: DIR needs config.json alone; weights filled on the device from SEED (smoke runs)\n"
    "--eager: frames launched one kernel at a time, not replayed from a CUDA graph; --no-pdl: the frame's graph\n"
    "         without programmatic kernel edges (each kernel starts when the one before it has ended)\n"
    "--fused-steps: each step of the talker and the code predictor one launch (models/qwen3/fused_step.hpp)\n"
    "--breakdown (bench): a frame's time phase by phase (events between the phases, so without PDL)\n"
    "--marginal (bench): what each of those phases costs a frame as it runs (the frame's graph replayed whole\n"
    "         and with the phase's launches disabled)\n"
    "bench: time to the first 80 ms packet, real-time factor at batch 1, --batch syntheses back to back; eos is\n"
    "       suppressed so that each synthesis has exactly --frames frames; --text defaults to a 20-word sentence\n"
    "       (needs DIR's tokenizer files); DIR/speech_tokenizer/config.json (random weights) or its checkpoint\n";

std::vector<std::int32_t> id_list(const CliArgs& a, const std::string& key) {
  auto const lists = parse_id_lists(a.get(key), a);
  if (lists.size() != 1) throw LoadError(kRuleUsage, "--" + key + " takes one list of ids");
  return lists[0];
}

}  // namespace

TtsPrompt cute_cpp::models::qwen3_tts::cli_prompt(const CliArgs& a, const Qwen3TtsConfig& config) {
  std::filesystem::path const folder = a.get("model");
  PromptRequest r;
  (void)a.get("model");
  if (a.has("ids") == a.has("text")) throw LoadError(kRuleUsage, "give one of --text and --ids\n" + std::string(kUsage));
  if (a.has("ids")) {
    r.text_ids = id_list(a, "ids");
    // NOTE: the reference drops the instruction for the 0.6B CustomVoice model (as for --instruct).
    if (a.has("instruct-ids") && config.tts_model_size != "0b6") r.instruct_ids = id_list(a, "instruct-ids");
  } else {
    Tokenizer const tokenizer = load_tokenizer(folder);  // tokenizer.json, or vocab.json + merges.txt
    r.text_ids = tokenizer.encode(assistant_text(a.get("text")));
    // NOTE: the reference drops the instruction for the 0.6B CustomVoice model.
    if (a.has("instruct") && config.tts_model_size != "0b6")
      r.instruct_ids = tokenizer.encode(instruct_text(a.get("instruct")));
  }
  if (a.has("speaker")) r.speaker = a.get("speaker");
  if (a.has("language")) r.language = a.get("language");
  r.non_streaming = !a.has("streaming");
  return build_prompt(config, r);
}

namespace {

std::unique_ptr<Qwen3TtsModel> model_of(const CliArgs& a) {
  TtsOptions o;
  o.cuda_graphs = !a.has("eager");
  o.programmatic_launch = !a.has("no-pdl");
  o.fused_steps = a.has("fused-steps");
  if (a.has("random-weights")) {
    auto const seed = random_weights_seed(a);
    return Qwen3TtsModel::with_random_weights(a.get("model"), *seed, o);
  }
  return Qwen3TtsModel::load(a.get("model"), o);
}

void write_floats(const std::string& path, const std::vector<float>& a, const std::vector<float>& b) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(a.data()), std::streamsize(a.size() * sizeof(float)));
  f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size() * sizeof(float)));
  if (!f) throw LoadError(kRuleUsage, "--out: cannot write " + in_quotes(path));
}

// Each command checks its arguments, the config and the prompt before any GPU work.
int run_logits(const CliArgs& a) {
  std::string const out = a.get("out");
  std::vector<std::int32_t> const codes = id_list(a, "codes");
  TtsPrompt const prompt = cli_prompt(a, read_qwen3_tts_config(a.get("model")));
  auto model = model_of(a);
  TalkerLogits const talker = model->talker_logits(prompt);
  std::vector<float> const predictor = model->predictor_logits(codes);
  write_floats(out, talker.logits, predictor);
  std::printf("logits: talker %d rows x %lld, code predictor %zu rows x %lld written to %s\n", talker.rows,
              static_cast<long long>(model->config().talker.decoder.vocab_size), codes.size() - 1,
              static_cast<long long>(model->config().code_predictor.vocab_size), out.c_str());
  return 0;
}

TtsSampling sampling_of(const CliArgs& a) {
  TtsSampling s = read_generation_defaults(a.get("model"));
  if (a.has("greedy")) s.do_sample = s.subtalker_do_sample = false;
  long long const seed = a.number("seed", 0), max_new = a.number("max-new-tokens", s.max_new_tokens);
  if (seed < 0 || max_new < 1 || max_new > (1 << 20))
    throw LoadError(kRuleUsage, "--seed must be 0 or more and --max-new-tokens 1 to 2^20 (got " + std::to_string(seed) +
                                    " and " + std::to_string(max_new) + ")");
  s.seed = std::uint64_t(seed);
  s.max_new_tokens = int(max_new);
  return s;
}

int run_codes(const CliArgs& a) {
  TtsPrompt const prompt = cli_prompt(a, read_qwen3_tts_config(a.get("model")));
  TtsSampling const sampling = sampling_of(a);
  auto model = model_of(a);
  auto const start = std::chrono::steady_clock::now();
  auto const frames = model->generate(prompt, sampling);
  double const seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // A frame is 80 ms of speech (12.5 Hz): the real-time factor is the time per second of speech.
  std::fprintf(stderr, "codes: %zu frames (%.2f s of speech) in %.3f s: %.1f frames/s, real-time factor %.3f\n",
               frames.size(), double(frames.size()) * 0.08, seconds, seconds > 0 ? double(frames.size()) / seconds : 0.0,
               frames.empty() ? 0.0 : seconds / (double(frames.size()) * 0.08));
  std::string text;
  int const groups = int(model->config().talker.num_code_groups);
  for (int g = 0; g < groups; ++g) {
    for (std::size_t f = 0; f < frames.size(); ++f) text += (f ? " " : "") + std::to_string(frames[f][std::size_t(g)]);
    text += "\n";
  }
  if (a.has("out")) {
    std::ofstream f(a.get("out"));
    f << text;
    if (!f) throw LoadError(kRuleUsage, "--out: cannot write " + in_quotes(a.get("out")));
    std::printf("codes: %d x %zu written to %s\n", groups, frames.size(), a.get("out").c_str());
  } else {
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

int run_prompt(const CliArgs& a) {
  TtsPrompt const p = cli_prompt(a, read_qwen3_tts_config(a.get("model")));
  std::string out = "{\"rows\": [";
  for (std::size_t i = 0; i < p.rows.size(); ++i)
    out += (i ? ", [" : "[") + std::to_string(p.rows[i].text) + ", " + std::to_string(p.rows[i].codec) + "]";
  out += "], \"trailing\": [";
  for (std::size_t i = 0; i < p.trailing.size(); ++i) out += (i ? ", " : "") + std::to_string(p.trailing[i]);
  out += "], \"pad\": " + std::to_string(p.pad_text) + "}\n";
  std::fputs(out.c_str(), stdout);
  return 0;
}

int run_synthesize(const CliArgs& a) {
  require_codec_decoder();
  std::string const out = a.get("out");
  TtsPrompt const prompt = cli_prompt(a, read_qwen3_tts_config(a.get("model")));
  TtsSampling const sampling = sampling_of(a);
  auto model = model_of(a);
  auto const frames = model->generate(prompt, sampling);
  synthesize_wav(a.get("model"), frames, out);
  std::printf("synthesize: %zu frames written to %s\n", frames.size(), out.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  static constexpr CliCommand commands[] = {{"logits", run_logits},         {"codes", run_codes},
                                            {"synthesize", run_synthesize}, {"prompt", run_prompt},
                                            {"bench", run_bench, true}};
  auto const parse = [](int n, char** v) {
    static const char* const flags[] = {"greedy",    "streaming", "eager",      "no-pdl",
                                        "breakdown", "marginal",  "fused-steps"};
    return parse_cli(n, v, flags, kRuleUsage, kUsage);
  };
  return run_cli(argc, argv, parse, commands);
}
