// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3_tts/model_sm90.cu: Qwen3TtsModel (model.hpp). The talker and the code predictor are
// Decoders (decoder.hpp); around them:
//   prompt rows:  text_projection(text_embedding(text)) + codec_embedding(codec)      (rows_to_embeddings)
//   talker:       prefill over the rows, M-RoPE ids equal to the place (text only); logits = codec_head(h)
//   a frame:      code 0 drawn from the talker's logits (talker_scores_kernel's processors, then the
//                 sampler or its greedy pick); code predictor step 0 on proj(h), step 1 on
//                 proj(codec_embedding(code 0)), step s on proj(predictor embedding s-2 (code s-1)),
//                 code s drawn from lm_head s-1 after step s; frame_finish builds the talker's next
//                 input; the talker's step; its logits
// where proj is small_to_mtp_projection (the identity when the widths agree). proj of a table row is
// computed for every row of each table once at load (project_tables), so a step s >= 1 gathers its
// input; each head's GEMV norms the step's last row itself (the predictor's final RMSNorm).
#include "models/qwen3_tts/model.hpp"

#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/graph_pdl.hpp>  // make_kernel_edges_programmatic

#include <cuda_bf16.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <utility>  // std::move

#include "models/common/error.hpp"
#include "models/common/linear.cuh"  // linear_tn, normed_linear_tn, normed_linear_takes
#include "models/common/step_marks.cuh"  // StepMarks
#include "models/qwen3/sampling.hpp"
#include "models/qwen3_tts/decoder.hpp"
#include "models/qwen3_tts/tts_device_weights.hpp"
#include "models/qwen3_tts/mrope.hpp"
#include "models/qwen3_tts/tts_kernels.cuh"

namespace cute_cpp::models::qwen3_tts {

namespace {

using host::cuda_check;
constexpr char kRuleInput[] = "cute-cpp [tts.input]: the prompt, codes and options must fit the model";

template <class T>
DeviceBuffer<T> upload_vector(const std::vector<T>& h, cudaStream_t stream) {
  DeviceBuffer<T> d(std::max<std::size_t>(h.size(), 1));
  if (!h.empty())
    cuda_check(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream),
               "cudaMemcpyAsync(upload)");
  return d;
}

std::vector<float> download_floats(bf16 const* d, std::size_t n, cudaStream_t stream) {
  std::vector<bf16> h(n);
  cuda_check(cudaMemcpyAsync(h.data(), d, n * sizeof(bf16), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync(download)");
  cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(download)");
  std::vector<float> f(n);
  for (std::size_t i = 0; i < n; ++i) f[i] = __bfloat162float(h[i]);
  return f;
}

class Model final : public Qwen3TtsModel {
 public:
  Model(const std::filesystem::path& folder, TtsOptions options, std::optional<std::uint64_t> seed);
  ~Model() override {
    if (graph_ != nullptr) (void)cudaGraphExecDestroy(graph_);
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
  }
  const Qwen3TtsConfig& config() const noexcept override { return config_; }
  void set_programmatic_launch(bool on) noexcept override { options_.programmatic_launch = on; }
  void set_fused_steps(bool on) noexcept override {
    options_.fused_steps = on;
    talker_->set_fused_steps(on);
    predictor_->set_fused_steps(on);
  }
  TalkerLogits talker_logits(const TtsPrompt& prompt) override;
  std::vector<float> predictor_logits(std::span<const std::int32_t> codes) override;
  using Qwen3TtsModel::generate;
  std::vector<std::vector<std::int32_t>> generate(const TtsPrompt& prompt, const TtsSampling& sampling,
                                                  const FrameSink& on_frame) override;
  std::vector<StepPhase> profile_frame(int replays) override;
  MarginalProfile marginal_frame(int replays) override;

 private:
  /// rows' embeddings into out [rows, talker hidden]: the text part where text >= 0, the codec part
  /// where codec >= 0.
  void rows_to_embeddings(const std::vector<PromptRow>& rows, bf16* out);
  /// The talker over the prompt; talker_last_ and talker_logits_ then hold its last row's.
  void talker_prefill(const TtsPrompt& prompt);
  /// The talker's last hidden row and its logits from hidden() row `row`.
  void talker_head(int row);
  /// The code predictor's 16 steps over codes_ (teacher-forced: codes_ given; else each code drawn
  /// into codes_ as it comes), the logits of codes 1 .. groups - 1 into predictor_logits_.
  void predictor_frame(bool draw);
  /// projected_tables_: each step's embedding table through small_to_mtp_projection once, at load.
  void project_tables();
  /// One frame (model.hpp): launches only, so that it can be recorded.
  void frame();
  /// Closes the phase `name` of a frame being profiled (a string literal; nothing otherwise).
  void mark(char const* name) { marks_.mark(name, stream_); }

  Qwen3TtsConfig config_;
  TtsOptions options_;
  cudaStream_t stream_ = nullptr;
  TtsDeviceWeights w_;
  std::optional<Decoder> talker_, predictor_;
  int hidden_ = 0, small_ = 0, groups_ = 0, vocab_ = 0, entries_ = 0, text_width_ = 0;
  GrowingWorkspace workspace_;
  // Prompt rows.
  DeviceBuffer<bf16> text_in_, text_mid_, text_out_, embeds_;
  DeviceBuffer<std::int32_t> positions_;
  // The frame's state (frame_finish.hpp's FrameState points into these).
  DeviceBuffer<bf16> talker_last_, talker_logits_, scores_, predictor_in_, predictor_proj_, predictor_logits_;
  DeviceBuffer<bf16> next_input_, text_rows_;
  DeviceBuffer<bf16 const*> tables_;
  // Code predictor step s >= 1's input for each code: small_to_mtp_projection of the embedding table
  // row, bias added (empty when the widths agree: the table rows are the input).
  std::vector<DeviceBuffer<bf16>> projected_tables_;
  DeviceBuffer<std::int32_t> codes_, frame_, out_, talker_pos_, talker_len_, predictor_pos_, predictor_len_;
  DeviceBuffer<std::uint64_t> random_step_;
  DeviceBuffer<std::uint8_t> seen_;
  int text_count_ = 0, prompt_rows_ = 0;
  TtsSampling sampling_{};
  cudaGraphExec_t graph_ = nullptr;
  bool graph_failed_ = false;
  int frames_drawn_ = 0;  // by the last generate (profile_frame's replays draw after them)
  StepMarks marks_;
};

Model::Model(const std::filesystem::path& folder, TtsOptions options, std::optional<std::uint64_t> seed)
    : config_(read_qwen3_tts_config(folder)), options_(options) {
  if (options_.max_prompt < 1 || options_.max_frames < 1)
    throw LoadError(kRuleInput, "max_prompt " + std::to_string(options_.max_prompt) + " and max_frames " +
                                    std::to_string(options_.max_frames) + " must be positive");
  TtsWeightManifest const manifest(config_);
  w_ = seed ? random_weights(manifest, *seed) : checkpoint_weights(folder, manifest);
  cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  hidden_ = int(config_.talker.decoder.hidden_size);
  small_ = int(config_.code_predictor.hidden_size);
  groups_ = int(config_.talker.num_code_groups);
  vocab_ = int(config_.talker.decoder.vocab_size);
  entries_ = int(config_.code_predictor.vocab_size);
  text_width_ = int(config_.talker.text_hidden_size);
  talker_.emplace(config_.talker.decoder, std::move(w_.talker_layers), std::move(w_.talker_norm),
                  options_.max_prompt + options_.max_frames, options_.max_prompt, mrope_components(config_.talker.mrope),
                  stream_, options_.fused_steps);
  predictor_.emplace(config_.code_predictor, std::move(w_.predictor_layers), std::move(w_.predictor_norm), groups_, 1,
                     std::vector<std::int8_t>{}, stream_, options_.fused_steps);
  auto const rows = std::size_t(options_.max_prompt);
  text_in_ = DeviceBuffer<bf16>(rows * text_width_);
  text_mid_ = DeviceBuffer<bf16>(rows * text_width_);
  text_out_ = DeviceBuffer<bf16>(rows * hidden_);
  embeds_ = DeviceBuffer<bf16>(rows * hidden_);
  talker_last_ = DeviceBuffer<bf16>(std::size_t(hidden_));
  talker_logits_ = DeviceBuffer<bf16>(std::size_t(vocab_));
  scores_ = DeviceBuffer<bf16>(std::size_t(vocab_));
  predictor_in_ = DeviceBuffer<bf16>(std::size_t(hidden_));
  predictor_proj_ = DeviceBuffer<bf16>(std::size_t(small_));
  predictor_logits_ = DeviceBuffer<bf16>(std::size_t(groups_ - 1) * entries_);
  next_input_ = DeviceBuffer<bf16>(std::size_t(hidden_));
  std::vector<bf16 const*> tables{w_.codec_embedding.data()};
  for (auto const& t : w_.predictor_embeddings) tables.push_back(t.data());
  tables_ = upload_vector(tables, stream_);
  project_tables();
  codes_ = DeviceBuffer<std::int32_t>(std::size_t(groups_));
  frame_ = DeviceBuffer<std::int32_t>(1);
  out_ = DeviceBuffer<std::int32_t>(std::size_t(options_.max_frames) * groups_);
  talker_pos_ = DeviceBuffer<std::int32_t>(4);
  talker_len_ = DeviceBuffer<std::int32_t>(1);
  // The code predictor's step s: place s in every plane, s + 1 cached tokens after it.
  std::vector<std::int32_t> pos, len;
  for (int s = 0; s < groups_; ++s) {
    pos.insert(pos.end(), 4, s);
    len.push_back(s + 1);
  }
  predictor_pos_ = upload_vector(pos, stream_);
  predictor_len_ = upload_vector(len, stream_);
  random_step_ = DeviceBuffer<std::uint64_t>(1);
  seen_ = DeviceBuffer<std::uint8_t>(std::size_t(vocab_));
  cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize(setup)");
}

void Model::project_tables() {
  if (!config_.projects_to_predictor()) return;
  // The same two steps a frame ran on each row (the GEMM rounded to bf16, then the bias), over every
  // row of each table at once: step s >= 1 then gathers its input instead of projecting it.
  for (int s = 1; s < groups_; ++s) {
    bf16 const* const table = s == 1 ? w_.codec_embedding.data() : w_.predictor_embeddings[std::size_t(s - 2)].data();
    std::int64_t const rows = s == 1 ? vocab_ : entries_;
    DeviceBuffer<bf16> projected(std::size_t(rows) * std::size_t(small_));
    linear_tn(table, w_.projection.data(), projected.data(), rows, small_, hidden_, workspace_, stream_);
    bias_act(projected.data(), w_.projection_bias.data(), rows, small_, false, stream_);
    projected_tables_.push_back(std::move(projected));
  }
}

void Model::rows_to_embeddings(const std::vector<PromptRow>& rows, bf16* out) {
  std::int64_t const n = std::int64_t(rows.size());
  std::vector<std::int32_t> text, codec;
  for (PromptRow const& r : rows) {
    if (r.text >= config_.talker.text_vocab_size || r.codec >= vocab_)
      throw LoadError(kRuleInput, "prompt row (text " + std::to_string(r.text) + ", codec " + std::to_string(r.codec) +
                                      ") is outside the text (" + std::to_string(config_.talker.text_vocab_size) +
                                      ") or codec (" + std::to_string(vocab_) + ") vocabulary");
    text.push_back(r.text);
    codec.push_back(r.codec);
  }
  DeviceBuffer<std::int32_t> const text_ids = upload_vector(text, stream_), codec_ids = upload_vector(codec, stream_);
  // text_projection = linear_fc2(silu(linear_fc1(x))), both with biases; rows without text get zeros
  // from the gather (an id of -1) and are left out by combine_rows.
  gather(w_.text_embedding.data(), config_.talker.text_vocab_size, text_ids.data(), text_in_.data(), n,
              text_width_, stream_);
  linear_tn(text_in_.data(), w_.text_fc1.data(), text_mid_.data(), n, text_width_, text_width_, workspace_, stream_);
  bias_act(text_mid_.data(), w_.text_fc1_bias.data(), n, text_width_, true, stream_);
  linear_tn(text_mid_.data(), w_.text_fc2.data(), text_out_.data(), n, hidden_, text_width_, workspace_, stream_);
  bias_act(text_out_.data(), w_.text_fc2_bias.data(), n, hidden_, false, stream_);
  combine_rows(out, text_out_.data(), text_ids.data(), w_.codec_embedding.data(), vocab_, codec_ids.data(), n, hidden_,
               stream_);
  cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize(prompt rows)");  // the id buffers go out of scope
}

void Model::talker_prefill(const TtsPrompt& prompt) {
  int const n = int(prompt.rows.size());
  if (n < 1 || n > options_.max_prompt || std::int64_t(prompt.trailing.size()) + 1 > options_.max_prompt)
    throw LoadError(kRuleInput, "the prompt has " + std::to_string(n) + " rows and " +
                                    std::to_string(prompt.trailing.size()) + " trailing text ids; max_prompt is " +
                                    std::to_string(options_.max_prompt));
  rows_to_embeddings(prompt.rows, embeds_.data());
  MropePositions const p = text_positions(0, n);
  positions_ = upload_vector(p.planes, stream_);
  talker_->prefill(embeds_.data(), n, positions_.data());
  prompt_rows_ = n;
  talker_head(n - 1);
}

void Model::talker_head(int row) {
  cuda_check(cudaMemcpyAsync(talker_last_.data(), talker_->hidden() + std::int64_t(row) * hidden_,
                             std::size_t(hidden_) * sizeof(bf16), cudaMemcpyDeviceToDevice, stream_),
             "cudaMemcpyAsync(talker hidden)");
  linear_tn(talker_last_.data(), w_.codec_head.data(), talker_logits_.data(), 1, vocab_, hidden_, workspace_, stream_);
}

TalkerLogits Model::talker_logits(const TtsPrompt& prompt) {
  talker_prefill(prompt);
  TalkerLogits r;
  r.rows = prompt_rows_;
  DeviceBuffer<bf16> all(std::size_t(r.rows) * vocab_);
  linear_tn(talker_->hidden(), w_.codec_head.data(), all.data(), r.rows, vocab_, hidden_, workspace_, stream_);
  r.logits = download_floats(all.data(), all.size(), stream_);
  r.last_hidden = download_floats(talker_last_.data(), std::size_t(hidden_), stream_);
  return r;
}

void Model::predictor_frame(bool draw) {
  SamplingParams params;
  params.temperature = sampling_.subtalker_do_sample ? sampling_.subtalker_temperature : 0.0f;
  params.top_k = sampling_.subtalker_top_k;
  params.top_p = sampling_.subtalker_top_p;
  params.seed = sampling_.seed;
  // The final RMSNorm goes inside each head's GEMV where the kernel takes the row (step 0's output
  // is read by nothing: its final norm is skipped).
  bool const fold_norm = normed_linear_takes(1, small_);
  bool const projects = config_.projects_to_predictor();
  for (int s = 0; s < groups_; ++s) {
    bf16 const* in = talker_last_.data();
    if (s == 0 && projects) {
      linear_tn(in, w_.projection.data(), predictor_proj_.data(), 1, small_, hidden_, workspace_, stream_);
      bias_act(predictor_proj_.data(), w_.projection_bias.data(), 1, small_, false, stream_);
      in = predictor_proj_.data();
    } else if (s >= 1) {  // the code's row of the step's table, projected at load where the widths differ
      std::int64_t const table_rows = s == 1 ? vocab_ : entries_;
      bf16 const* const table = projects ? projected_tables_[std::size_t(s - 1)].data()
                                : s == 1 ? w_.codec_embedding.data()
                                         : w_.predictor_embeddings[std::size_t(s - 2)].data();
      bf16* const row = projects ? predictor_proj_.data() : predictor_in_.data();
      gather(table, table_rows, codes_.data() + (s - 1), row, 1, projects ? small_ : hidden_, stream_);
      in = row;
    }
    mark("predictor input");
    predictor_->step(in, predictor_pos_.data() + 4 * s, predictor_len_.data() + s, !fold_norm);
    mark("predictor step");
    if (s == 0) continue;
    bf16* const logits = predictor_logits_.data() + std::int64_t(s - 1) * entries_;
    bf16 const* const head = w_.predictor_heads[std::size_t(s - 1)].data();
    if (fold_norm)
      normed_linear_tn(predictor_->final_rows(), head, logits, 1, entries_, small_, stream_,
                       kernels::IndependentOperand::B);
    else
      linear_tn(predictor_->hidden(), head, logits, 1, entries_, small_, workspace_, stream_);
    if (draw)
      sample_tokens(logits, entries_, 1, entries_, params, std::uint64_t(s), random_step_.data(), codes_.data() + s,
                    nullptr, 0, stream_);
    mark("predictor head + draw");
  }
}

std::vector<float> Model::predictor_logits(std::span<const std::int32_t> codes) {
  if (prompt_rows_ == 0 || codes.size() != std::size_t(groups_))
    throw LoadError(kRuleInput, "predictor_logits needs talker_logits first and " + std::to_string(groups_) +
                                    " codes (got " + std::to_string(codes.size()) + ")");
  for (std::size_t g = 0; g < codes.size(); ++g)
    if (codes[g] < 0 || codes[g] >= (g == 0 ? vocab_ : entries_))
      throw LoadError(kRuleInput, "code " + std::to_string(codes[g]) + " of group " + std::to_string(g) +
                                      " is outside its vocabulary");
  cuda_check(cudaMemcpyAsync(codes_.data(), codes.data(), codes.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice,
                             stream_),
             "cudaMemcpyAsync(codes)");
  predictor_frame(false);
  return download_floats(predictor_logits_.data(), predictor_logits_.size(), stream_);
}

void Model::frame() {
  TalkerRules rules;
  rules.vocab = vocab_;
  rules.eos = int(config_.talker.codec_eos_token_id);
  rules.suppress_from = vocab_ - 1024;
  rules.repetition_penalty = sampling_.repetition_penalty;
  if (sampling_.suppress_eos) rules.min_frames = std::numeric_limits<int>::max();
  talker_scores(talker_logits_.data(), scores_.data(), seen_.data(), frame_.data(), rules, !sampling_.do_sample,
                codes_.data(), stream_);
  if (sampling_.do_sample) {
    SamplingParams params;
    params.temperature = sampling_.temperature;
    params.top_k = sampling_.top_k;
    params.top_p = sampling_.top_p;
    params.seed = sampling_.seed;
    sample_tokens(scores_.data(), vocab_, 1, vocab_, params, 0, random_step_.data(), codes_.data(), nullptr, 0, stream_);
  }
  mark("talker code 0");
  predictor_frame(true);
  FrameState s;
  s.codes = codes_.data();
  s.tables = tables_.data();
  s.text_rows = text_rows_.data();
  s.text_count = text_count_;
  s.groups = groups_, s.width = hidden_;
  s.prompt = prompt_rows_;
  s.frame = frame_.data();
  s.random_step = random_step_.data();
  s.out = out_.data();
  s.max_frames = options_.max_frames;
  s.seen = seen_.data();
  s.next_input = next_input_.data();
  s.positions = talker_pos_.data();
  s.length = talker_len_.data();
  frame_finish(s, stream_);
  mark("frame finish");
  talker_->step(next_input_.data(), talker_pos_.data(), talker_len_.data());
  mark("talker step");
  talker_head(0);
  mark("talker head");
}

std::vector<StepPhase> Model::profile_frame(int replays) {
  // The device's frame counter may be one past the frames handed over (an eos frame is drawn, not kept).
  if (prompt_rows_ == 0 || replays < 1 || frames_drawn_ + replays + 2 > options_.max_frames)
    throw LoadError(kRuleInput, "profile_frame needs a generate first, and its " + std::to_string(frames_drawn_) +
                                    " frames plus " + std::to_string(replays) + " replays + 2 within max_frames " +
                                    std::to_string(options_.max_frames));
  // The recording holds the launches of a frame already run (every workspace sized by generate).
  return marks_.profile([&] { frame(); }, stream_, replays);
}

MarginalProfile Model::marginal_frame(int replays) {
  if (prompt_rows_ == 0 || replays < 1)
    throw LoadError(kRuleInput, "marginal_frame needs a generate first and at least one replay");
  // Each replay draws a frame: those left after the generate's (and an eos frame, drawn but not kept).
  int const left = options_.max_frames - frames_drawn_ - 2;
  return marks_.marginal([&] { frame(); }, stream_, options_.programmatic_launch, replays, std::max(left, 1));
}

std::vector<std::vector<std::int32_t>> Model::generate(const TtsPrompt& prompt, const TtsSampling& sampling,
                                                       const FrameSink& on_frame) {
  if (sampling.max_new_tokens < 1)
    throw LoadError(kRuleInput, "max_new_tokens is " + std::to_string(sampling.max_new_tokens) + "; at least 1");
  // NOTE: a recorded frame holds the sampling settings; new ones record it again.
  if (graph_ != nullptr) (void)cudaGraphExecDestroy(graph_), graph_ = nullptr;
  sampling_ = sampling;
  talker_prefill(prompt);
  // The text rows frames add: the trailing text ids, then tts_pad.
  std::vector<PromptRow> text;
  for (std::int32_t id : prompt.trailing) text.push_back({id, -1});
  text.push_back({prompt.pad_text, -1});
  text_count_ = int(prompt.trailing.size());
  text_rows_ = DeviceBuffer<bf16>(text.size() * hidden_);
  rows_to_embeddings(text, text_rows_.data());
  cuda_check(cudaMemsetAsync(frame_.data(), 0, sizeof(std::int32_t), stream_), "cudaMemsetAsync(frame)");
  cuda_check(cudaMemsetAsync(random_step_.data(), 0, sizeof(std::uint64_t), stream_), "cudaMemsetAsync(step)");
  cuda_check(cudaMemsetAsync(seen_.data(), 0, seen_.size(), stream_), "cudaMemsetAsync(seen)");

  int const limit = std::min({sampling.max_new_tokens - 1, options_.max_frames});
  int frames = 0;
  // NOTE: the host reads the frame's 16 codes (64 bytes), not only code 0, so that on_frame gets them
  // with no second copy.
  std::vector<std::int32_t> codes(std::size_t(groups_), 0);
  for (int f = 0; f < limit && prompt_rows_ + f < talker_->max_seq(); ++f) {
    if (f == 0 || !options_.cuda_graphs || graph_failed_) {
      frame();  // the first frame runs eagerly: it sizes every workspace before a recording
    } else {
      if (graph_ == nullptr) {
        // Every kernel of a frame waits for its predecessor's memory before touching global memory
        // (the library's GEMMs, norms and attention, layer_kernels.cuh, tts_kernels.cuh, the sampler).
        host::RecordedGraph const r = host::record_graph(stream_, options_.programmatic_launch, [&] { frame(); });
        graph_ = r.exec;
        if (graph_ == nullptr) {  // a launch the capture refused: the frames run eagerly
          graph_failed_ = true;
          std::fprintf(stderr, "cute-cpp-tts: no CUDA graph for a frame (%s%s%s); running frames eagerly\n",
                       cudaGetErrorString(r.error), r.what.empty() ? "" : ": ", r.what.c_str());
          frame();
        }
      }
      if (graph_ != nullptr) cuda_check(cudaGraphLaunch(graph_, stream_), "cudaGraphLaunch(frame)");
    }
    cuda_check(cudaMemcpyAsync(codes.data(), out_.data() + std::int64_t(f) * groups_,
                               codes.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost, stream_),
               "cudaMemcpyAsync(frame codes)");
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize(frame)");
    if (codes[0] == config_.talker.codec_eos_token_id) break;
    frames = f + 1;
    if (on_frame && !on_frame(f, codes)) break;
  }
  // The talker's cache ends before the model's max_new_tokens: say so rather than end silently.
  if (frames == limit && limit == options_.max_frames && sampling.max_new_tokens - 1 > options_.max_frames)
    std::fprintf(stderr, "cute-cpp-tts: stopped at max_frames (%d frames, %.1f s); the model allows %d\n", frames,
                 frames / 12.5, sampling.max_new_tokens - 1);
  std::vector<std::int32_t> flat(static_cast<std::size_t>(frames) * std::size_t(groups_));
  if (frames > 0)
    cuda_check(cudaMemcpy(flat.data(), out_.data(), flat.size() * sizeof(std::int32_t), cudaMemcpyDeviceToHost),
               "cudaMemcpy(codes)");
  frames_drawn_ = frames;
  std::vector<std::vector<std::int32_t>> result(static_cast<std::size_t>(frames));
  for (int f = 0; f < frames; ++f)
    result[std::size_t(f)].assign(flat.begin() + std::ptrdiff_t(f) * groups_, flat.begin() + std::ptrdiff_t(f + 1) * groups_);
  return result;
}

}  // namespace

std::unique_ptr<Qwen3TtsModel> Qwen3TtsModel::load(const std::filesystem::path& folder, TtsOptions options) {
  return std::make_unique<Model>(folder, options, std::nullopt);
}

std::unique_ptr<Qwen3TtsModel> Qwen3TtsModel::with_random_weights(const std::filesystem::path& folder,
                                                                   std::uint64_t seed, TtsOptions options) {
  return std::make_unique<Model>(folder, options, seed);
}

}  // namespace cute_cpp::models::qwen3_tts
