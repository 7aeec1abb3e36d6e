// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/tts_bench.cpp: cute-cpp-tts bench (issue 47): text to 24 kHz speech end to end, the
// talker and code predictor (Qwen3TtsModel) and the speech tokenizer's decoder (CodecDecoder), with the
// checkpoint's weights or random ones filled on the device. eos is suppressed (TtsSampling::suppress_eos)
// so that every synthesis has exactly --frames frames: random weights would stop anywhere, or never.
// Wall-clock (steady_clock) times: every step below ends with its result in host memory, so the host
// clock sees the whole of each. After one warm-up of each measurement, the median of --runs runs of:
//   first packet   from the prompt rows on the host to the first 80 ms of waveform in host memory: the
//                  prompt rows' embeddings, the talker's prefill, frame 0 (code 0 and the code predictor's
//                  15 codes, drawn on the device), its 16 codes to the host, pushed into a CodecStream
//                  (--stream-chunk frames a window, --left-context frames before it), the window decoded and
//                  its samples copied back; with a chunk of c frames the packet is c x 80 ms.
//   synthesis      generate(--frames frames) then one decode_chunked of them (the reference's 300/25
//                  windows), the samples in host memory: real-time factor = wall time / audio seconds.
//   batch          --batch syntheses of the text back to back on one GPU ("B sequential": the model holds
//                  one sequence): audio seconds per wall second.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>  // std::pair
#include <vector>

#include "models/common/bench_timing.hpp"  // median
#include "models/common/cli.hpp"
#include "models/common/error.hpp"
#include "models/common/manifest.hpp"  // ExpectedTensor, tensor_bytes
#include "models/qwen3_tts/model.hpp"
#include "models/qwen3_tts/synthesize.hpp"  // require_codec_decoder
#include "models/qwen3_tts/tts_cli.hpp"
#include "models/qwen3_tts/tts_weights.hpp"  // TtsWeightManifest

// CUTE_CPP_TTS_CODEC_DECODER: set by models/CMakeLists.txt where the build has the decoder's library.
#if defined(CUTE_CPP_TTS_CODEC_DECODER)
#include "models/qwen3_tts/codec.hpp"  // CodecDecoder, CodecStream, read_codec_config
#endif

namespace cute_cpp::models::qwen3_tts {

namespace {

/// 20 words of plain English, the sentence length.
constexpr char kDefaultText[] =
    "The quick brown fox jumps over the lazy dog while the morning sun rises slowly above the quiet green hills.";
/// Issue 47's goals on the H200.
constexpr double kGoalFirstPacketMs = 50.0, kGoalRealTimeFactor = 0.05;
constexpr char kRuleCodecMatch[] =
    "cute-cpp [tts.codec-match]: the talker's code groups and codebook must be the speech tokenizer's num_quantizers "
    "and codebook_size";

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct BenchOptions {
  int frames = 125;  ///< 10 s of speech
  int batch = 8;
  int runs = 5;
  std::int64_t stream_chunk = 1, left_context = 25;
  bool fused_steps = false;  ///< --fused-steps: the other figures with fused steps
};

/// One figure in gpu-check's record schema (bench/results/h200.json).
struct Record {
  std::string kernel, shape, unit, reference;
  double ours = 0, reference_value = 0, ratio = 0, ms = 0;
  double bytes = -1;  ///< a frame phase's weight bytes (bench_tts.py sets the reference from them), else -1
};

BenchOptions bench_options(const CliArgs& a) {
  BenchOptions o;
  o.frames = int(a.number("frames", o.frames));
  o.batch = int(a.number("batch", o.batch));
  o.runs = int(a.number("runs", o.runs));
  o.stream_chunk = a.number("stream-chunk", o.stream_chunk);
  o.left_context = a.number("left-context", o.left_context);
  o.fused_steps = a.has("fused-steps");
  if (o.frames < 1 || o.frames > TtsOptions{}.max_frames || o.batch < 1 || o.batch > 64 || o.runs < 1 ||
      o.stream_chunk < 1 || o.left_context < 0)
    throw LoadError(kRuleUsage, "bench takes --frames 1 to " + std::to_string(TtsOptions{}.max_frames) +
                                    ", --batch 1 to 64, --runs and --stream-chunk at least 1, --left-context at "
                                    "least 0");
  return o;
}

void write_records(const std::string& path, std::vector<Record> const& records) {
  std::ofstream j(path);
  j << "[";
  for (std::size_t i = 0; i < records.size(); ++i) {
    Record const& r = records[i];
    j << (i ? ",\n" : "\n") << "{\"kernel\": \"" << r.kernel << "\", \"shape\": \"" << r.shape
      << "\", \"dtype\": \"bf16\", \"ours\": " << r.ours << ", \"reference\": \"" << r.reference
      << "\", \"reference_value\": " << r.reference_value << ", \"unit\": \"" << r.unit << "\", \"ratio\": " << r.ratio
      << ", \"microseconds\": " << r.ms * 1e3;
    if (r.bytes >= 0) j << ", \"bytes\": " << r.bytes;
    j << "}";
  }
  j << "\n]\n";
  if (!j) throw LoadError(kRuleUsage, "--json: cannot write " + in_quotes(path));
}

#if defined(CUTE_CPP_TTS_CODEC_DECODER)

/// frames [frames][groups] as the decoder's codes [1, groups, frames].
std::vector<std::int32_t> codec_layout(std::vector<std::vector<std::int32_t>> const& frames) {
  std::size_t const count = frames.size(), groups = frames.empty() ? 0 : frames[0].size();
  std::vector<std::int32_t> codes(groups * count);
  for (std::size_t f = 0; f < count; ++f)
    for (std::size_t g = 0; g < groups; ++g) codes[g * count + f] = frames[f][g];
  return codes;
}

struct Synthesis {
  double generate_ms = 0, decode_ms = 0;
  [[nodiscard]] double total_ms() const { return generate_ms + decode_ms; }
};

/// generate then decode_chunked (the reference's windows): the samples in host memory.
Synthesis synthesize_once(Qwen3TtsModel& model, CodecDecoder& decoder, const TtsPrompt& prompt,
                          const TtsSampling& sampling, int frames) {
  Synthesis s;
  auto const start = Clock::now();
  auto const codes = model.generate(prompt, sampling);
  s.generate_ms = ms_since(start);
  if (int(codes.size()) != frames)
    throw std::logic_error("cute-cpp: bench: generate gave " + std::to_string(codes.size()) + " frames, not " +
                           std::to_string(frames) + " (eos is suppressed)");
  auto const decode_start = Clock::now();
  std::vector<float> const wav = decoder.decode_chunked(codec_layout(codes), 1, frames);
  s.decode_ms = ms_since(decode_start);
  if (std::int64_t(wav.size()) != frames * decoder.samples_per_frame())
    throw std::logic_error("cute-cpp: bench: the decode gave " + std::to_string(wav.size()) + " samples");
  return s;
}

/// Bytes of the manifest's tensors named `name`, or under it where it ends in '.'.
double bytes_of(TtsWeightManifest const& m, std::string_view name) {
  double sum = 0;
  for (ExpectedTensor const& t : m.tensors())
    if (name.ends_with('.') ? t.name.starts_with(name) : t.name == name) sum += double(tensor_bytes(t.shape, t.dtype));
  return sum;
}

/// The weight bytes a frame's phases read (the checkpoint's tensors, as the manifest lists them), by the
/// names Qwen3TtsModel::profile_frame marks.
double phase_bytes(TtsWeightManifest const& m, std::string const& phase) {
  TtsTensorNames const& n = m.names();
  double const steps = double(m.config().talker.num_code_groups);
  if (phase == "talker step") return bytes_of(m, "talker.model.layers.") + bytes_of(m, n.talker_norm);
  if (phase == "talker head") return bytes_of(m, n.codec_head);
  if (phase == "predictor step")
    return steps * (bytes_of(m, "talker.code_predictor.model.layers.") + bytes_of(m, n.predictor_norm));
  if (phase == "predictor head + draw") return bytes_of(m, "talker.code_predictor.lm_head.");  // each head once
  // Step 0 projects the talker's row; later steps gather rows of tables projected at load.
  if (phase == "predictor input")
    return m.config().projects_to_predictor() ? bytes_of(m, n.projection_weight) + bytes_of(m, n.projection_bias) : 0;
  return 0.0;  // the talker's code 0, the frame's end: a few rows
}

/// --breakdown: a frame after a generate, phase by phase (Qwen3TtsModel::profile_frame, 20 replays).
std::vector<Record> frame_breakdown(Qwen3TtsModel& model, const TtsPrompt& prompt, const TtsSampling& sampling,
                                    std::string const& about, std::string const& kernel = "tts frame phase") {
  (void)model.generate(prompt, sampling);
  TtsWeightManifest const manifest(model.config());
  std::vector<Record> records;
  double total = 0;
  for (StepPhase const& p : model.profile_frame(20)) {
    std::printf("breakdown: %-22s %9.1f us a frame (%d a frame)\n", p.name.c_str(), p.microseconds, p.count);
    Record r{kernel, "batch 1, " + p.name + " (" + std::to_string(p.count) + " a frame), " + about, "us",
             "its weights at the copy bandwidth"};
    r.ours = p.microseconds, r.ms = p.microseconds / 1e3, r.bytes = phase_bytes(manifest, p.name);
    records.push_back(r);
    total += p.microseconds;
  }
  std::printf("breakdown: %-22s %9.1f us a frame (events between the phases, no PDL)\n", "total", total);
  return records;
}

/// --marginal: a frame after a generate as it runs, each phase's cost to it (Qwen3TtsModel::marginal_frame,
/// 20 replays); none where the driver refuses disabled nodes (said on stdout).
std::vector<Record> frame_marginal(Qwen3TtsModel& model, const TtsPrompt& prompt, const TtsSampling& sampling,
                                   std::string const& about) {
  (void)model.generate(prompt, sampling);
  TtsWeightManifest const manifest(model.config());
  MarginalProfile m;
  try {
    m = model.marginal_frame(20);
  } catch (std::runtime_error const& e) {
    std::printf("marginal: not measured: %s\n", e.what());
    return {};
  }
  std::vector<Record> records;
  double total = 0;
  for (StepPhase const& p : m.phases) {
    std::printf("marginal: %-22s %9.1f us a frame (%d a frame)\n", p.name.c_str(), p.microseconds, p.count);
    Record r{"tts frame marginal phase", "batch 1, " + p.name + " (" + std::to_string(p.count) + " a frame), " + about,
             "us", "its weights at the copy bandwidth"};
    r.ours = p.microseconds, r.ms = p.microseconds / 1e3, r.bytes = phase_bytes(manifest, p.name);
    records.push_back(r);
    total += p.microseconds;
  }
  std::printf("marginal: %-22s %9.1f us a frame (the phases' sum %.1f us)\n", "frame", m.step_microseconds, total);
  return records;
}

struct FirstPacket {
  double frame_ms = 0;   ///< the prompt rows to frame 0's codes on the host
  double packet_ms = 0;  ///< ... to the first window's samples on the host
};

/// The first packet through a stream fed frame by frame; generation stops once it is out.
FirstPacket first_packet(Qwen3TtsModel& model, CodecDecoder& decoder, const TtsPrompt& prompt,
                         const TtsSampling& sampling, BenchOptions const& o) {
  FirstPacket r;
  std::size_t got = 0;
  auto const start = Clock::now();
  CodecStream stream = decoder.stream(1, o.stream_chunk, o.left_context);
  (void)model.generate(prompt, sampling, [&](int frame, std::span<const std::int32_t> codes) {
    if (frame == 0) r.frame_ms = ms_since(start);
    got += stream.push(codes, 1).size();  // codes [1, groups, 1]: the frame's codes in order
    if (got < std::size_t(decoder.samples_per_frame())) return true;
    r.packet_ms = ms_since(start);
    return false;
  });
  if (got == 0) throw std::logic_error("cute-cpp: bench: no packet came out of the stream");
  return r;
}

/// Generation alone (frames/s) with a setting on and off (`set`), the two alternating (o.runs each,
/// after a warm-up of each: each generate records its own graph); the setting left as `keep`.
template <class Set>
std::pair<double, double> effect_of(Qwen3TtsModel& model, const TtsPrompt& prompt, const TtsSampling& sampling,
                                    BenchOptions const& o, Set const& set, bool keep) {
  std::vector<double> with, without;
  for (int r = -1; r < o.runs; ++r)
    for (bool const on : {true, false}) {
      set(on);
      auto const start = Clock::now();
      (void)model.generate(prompt, sampling);
      if (r >= 0) (on ? with : without).push_back(ms_since(start));
    }
  set(keep);
  return {o.frames / median(with) * 1e3, o.frames / median(without) * 1e3};
}

/// Medians of o.runs runs (after one warm-up) of the first packet, a synthesis, and o.batch back to back.
std::vector<Record> measure(Qwen3TtsModel& model, CodecDecoder& decoder, const TtsPrompt& prompt,
                            const TtsSampling& sampling, BenchOptions const& o, std::string const& about) {
  (void)first_packet(model, decoder, prompt, sampling, o);
  (void)synthesize_once(model, decoder, prompt, sampling, o.frames);
  std::vector<double> frame_ms, packet_ms, generate_ms, decode_ms, total_ms, batch_ms;
  for (int r = 0; r < o.runs; ++r) {
    FirstPacket const p = first_packet(model, decoder, prompt, sampling, o);
    frame_ms.push_back(p.frame_ms), packet_ms.push_back(p.packet_ms);
    Synthesis const s = synthesize_once(model, decoder, prompt, sampling, o.frames);
    generate_ms.push_back(s.generate_ms), decode_ms.push_back(s.decode_ms), total_ms.push_back(s.total_ms());
  }
  for (int r = 0; r < o.runs; ++r) {
    auto const start = Clock::now();
    for (int b = 0; b < o.batch; ++b) (void)synthesize_once(model, decoder, prompt, sampling, o.frames);
    batch_ms.push_back(ms_since(start));
  }
  double const audio_s = double(o.frames * decoder.samples_per_frame()) / double(decoder.config().output_sample_rate);
  double const frame_rate = double(decoder.config().output_sample_rate) / double(decoder.samples_per_frame());
  double const packet = median(packet_ms), total = median(total_ms), generate = median(generate_ms);
  double const decode = median(decode_ms), batch = median(batch_ms), rtf = total / (audio_s * 1e3);
  double const throughput = o.batch * audio_s / (batch / 1e3);
  std::printf("first packet: %.2f ms (prompt rows to frame 0's codes on the host %.2f ms, then the stream's first "
              "window and its samples %.2f ms)\n",
              packet, median(frame_ms), packet - median(frame_ms));
  std::printf("synthesis of %d frames (%.2f s of audio): generation %.1f ms (%.1f frames/s), decode %.2f ms, total "
              "%.1f ms: real-time factor %.4f\n",
              o.frames, audio_s, generate, o.frames / generate * 1e3, decode, total, rtf);
  std::printf("%d sequential syntheses: %.1f ms, %.1f s of audio per second\n", o.batch, batch, throughput);
  char frames_text[64];
  std::snprintf(frames_text, sizeof frames_text, "%d frames (%.2f s)", o.frames, audio_s);
  std::string const frames = frames_text;
  auto const [pdl, no_pdl] = effect_of(
      model, prompt, sampling, o, [&](bool on) { model.set_programmatic_launch(on); }, true);
  std::printf("generation with programmatic kernel edges %.1f frames/s, without %.1f\n", pdl, no_pdl);
  auto const [fused, layered] = effect_of(
      model, prompt, sampling, o, [&](bool on) { model.set_fused_steps(on); }, o.fused_steps);
  std::printf("generation with fused steps %.1f frames/s, layered %.1f\n", fused, layered);
  return {
      {"tts first packet", "batch 1, stream chunk " + std::to_string(o.stream_chunk) + " + " +
                               std::to_string(o.left_context) + " context, " + about,
       "ms", "issue 47's goal", packet, kGoalFirstPacketMs, kGoalFirstPacketMs / packet, packet},
      {"tts real-time factor", "batch 1, " + frames + ", " + about, "RTF", "issue 47's goal", rtf, kGoalRealTimeFactor,
       kGoalRealTimeFactor / rtf, total},
      {"tts generation", "batch 1, " + frames + ", " + about, "frames/s", "real time", o.frames / generate * 1e3,
       frame_rate, o.frames / generate * 1e3 / frame_rate, generate},
      {"tts generation pdl", "batch 1, " + frames + ", " + about, "frames/s", "the same frames without PDL", pdl,
       no_pdl, pdl / no_pdl, o.frames / pdl * 1e3},
      {"tts generation fused", "batch 1, " + frames + ", " + about, "frames/s", "the same frames with layered steps",
       fused, layered, fused / layered, o.frames / fused * 1e3},
      {"tts decode", "batch 1, " + frames + ", " + about, "ms", "real time (the audio's length)", decode, audio_s * 1e3,
       audio_s * 1e3 / decode, decode},
      {"tts synthesis throughput", std::to_string(o.batch) + " sequential, " + frames + ", " + about, "audio s/s",
       "1 / real-time factor at batch 1", throughput, 1.0 / rtf, throughput * rtf, batch},
  };
}

#endif  // CUTE_CPP_TTS_CODEC_DECODER

}  // namespace

int run_bench(const CliArgs& a) {
  require_codec_decoder();
  BenchOptions const o = bench_options(a);
  std::filesystem::path const folder = a.get("model");
#if defined(CUTE_CPP_TTS_CODEC_DECODER)
  // The configs, the prompt and the options are checked before any GPU work.
  Qwen3TtsConfig const config = read_qwen3_tts_config(folder);
  CodecConfig const codec = read_codec_config(folder / "speech_tokenizer" / "config.json");
  if (config.talker.num_code_groups != codec.num_quantizers || config.code_predictor.vocab_size != codec.codebook_size)
    throw LoadError(kRuleCodecMatch, "the talker has " + std::to_string(config.talker.num_code_groups) +
                                         " groups of " + std::to_string(config.code_predictor.vocab_size) +
                                         " codes; the speech tokenizer " + std::to_string(codec.num_quantizers) +
                                         " of " + std::to_string(codec.codebook_size));
  CliArgs text_args = a;
  if (!a.has("text") && !a.has("ids")) text_args.values["text"] = kDefaultText;
  TtsPrompt const prompt = cli_prompt(text_args, config);
  TtsSampling sampling = read_generation_defaults(folder);
  if (a.has("greedy")) sampling.do_sample = sampling.subtalker_do_sample = false;
  sampling.max_new_tokens = o.frames + 1;  // the reference completes no frame for its last drawn code
  sampling.suppress_eos = true;
  auto const seed = random_weights_seed(a);
  auto const load_start = Clock::now();
  TtsOptions options;
  options.fused_steps = o.fused_steps;
  auto model = seed ? Qwen3TtsModel::with_random_weights(folder, *seed, options) : Qwen3TtsModel::load(folder, options);
  CodecDecoder decoder = seed ? CodecDecoder::random(folder / "speech_tokenizer", *seed + 1)
                              : CodecDecoder::load(folder / "speech_tokenizer");
  std::printf("weights: %s in %.2f s; talker %lld layers; prompt %zu rows; eos suppressed: %d frames a synthesis\n",
              seed ? "RANDOM (filled on the device; the outputs mean nothing)" : "the checkpoint's",
              ms_since(load_start) / 1e3, static_cast<long long>(config.talker.decoder.num_hidden_layers),
              prompt.rows.size(), o.frames);
  std::string const about = std::to_string(prompt.rows.size()) + " prompt rows, " +
                            std::to_string(config.talker.decoder.num_hidden_layers) + " talker layers" +
                            (a.has("greedy") ? ", greedy" : ", sampled") + (seed ? ", random weights" : "");
  std::vector<Record> records = measure(*model, decoder, prompt, sampling, o, about);
  if (a.has("breakdown")) {
    std::vector<Record> const phases = frame_breakdown(*model, prompt, sampling, about);
    records.insert(records.end(), phases.begin(), phases.end());
    // The same frame with the other kind of step (fused where the run is layered, and back).
    model->set_fused_steps(!o.fused_steps);
    std::vector<Record> const other = frame_breakdown(
        *model, prompt, sampling, about, o.fused_steps ? "tts frame phase, layered steps" : "tts frame phase, fused steps");
    records.insert(records.end(), other.begin(), other.end());
    model->set_fused_steps(o.fused_steps);
  }
  if (a.has("marginal")) {
    std::vector<Record> const phases = frame_marginal(*model, prompt, sampling, about);
    records.insert(records.end(), phases.begin(), phases.end());
  }
  for (Record const& r : records)
    std::printf("%s (%s): %.4g %s (%s %.4g, ratio %.3f)\n", r.kernel.c_str(), r.shape.c_str(), r.ours, r.unit.c_str(),
                r.reference.c_str(), r.reference_value, r.ratio);
  if (a.has("json")) write_records(a.get("json"), records);
#else
  (void)o, (void)folder;
#endif
  return 0;
}

}  // namespace cute_cpp::models::qwen3_tts
