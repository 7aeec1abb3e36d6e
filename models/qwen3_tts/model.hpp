// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3_tts/model.hpp: Qwen3-TTS's talker and code predictor on the GPU (sm_90a), one text
// at a time: teacher-forced logits of both (for checks) and the generation of codes, frame by frame.
// A frame (the reference's generate step) is: the talker's first code drawn from its last logits,
// the code predictor's 16 steps drawing codes 1 .. 15, the talker's next input (the sum of the
// frame's 16 code embeddings plus the frame's text row) and the talker's step, all on the device
// and replayed from one CUDA graph; the host reads one id per frame (to stop at eos).
// Host-facing: no kernel is declared here.
#include <cstdint>     // std::int32_t, std::uint64_t
#include <filesystem>  // std::filesystem::path
#include <functional>  // std::function
#include <memory>      // std::unique_ptr
#include <span>        // std::span
#include <vector>      // std::vector

#include "models/common/step_profile.hpp"  // StepPhase
#include "models/qwen3_tts/tts_config.hpp"  // Qwen3TtsConfig, TtsSampling
#include "models/qwen3_tts/prompt.hpp"  // TtsPrompt

namespace cute_cpp::models::qwen3_tts {

/// The run-time sizes.
struct TtsOptions {
  int max_prompt = 2048;  ///< prompt rows of the talker
  int max_frames = 4096;  ///< frames generated at most (and the talker's cache beyond the prompt)
  bool cuda_graphs = true;  ///< frames replay a CUDA graph; false: the same launches, eagerly
  /// The frame graph's kernel-to-kernel edges are programmatic (PDL, host/graph_pdl.hpp): each kernel
  /// launches while the one before it runs and waits for its memory in griddepcontrol.wait.
  bool programmatic_launch = true;
  /// The talker's and the code predictor's steps each one launch (models/qwen3/fused_step.hpp) where
  /// the fused step takes their widths; false: a step's ~7 launches a layer.
  bool fused_steps = false;
};

/// Called with each frame's codes [num_code_groups] as soon as the host has them (frame 0 first);
/// returning false ends the generation after that frame (a streaming consumer, or a benchmark of the
/// first packet).
using FrameSink = std::function<bool(int frame, std::span<const std::int32_t> codes)>;

/// The talker's teacher-forced pass over a prompt.
struct TalkerLogits {
  int rows = 0;
  std::vector<float> logits;       ///< [rows, codec vocab] (bf16 values)
  std::vector<float> last_hidden;  ///< [talker hidden]: the last row's final-normed hidden state
};

class Qwen3TtsModel {
 public:
  /// Reads config.json, validates the checkpoint (TtsWeightManifest) and loads the weights.
  /// @pre bfloat16 weights, head_dim 64, 128 or 256 [tts.decoder]; options positive [tts.input].
  [[nodiscard]] static std::unique_ptr<Qwen3TtsModel> load(const std::filesystem::path& folder, TtsOptions options = {});
  /// config.json alone, the weights filled on the device from `seed` (for timings and smoke runs).
  [[nodiscard]] static std::unique_ptr<Qwen3TtsModel> with_random_weights(const std::filesystem::path& folder,
                                                                          std::uint64_t seed, TtsOptions options = {});
  virtual ~Qwen3TtsModel() = default;

  [[nodiscard]] virtual const Qwen3TtsConfig& config() const noexcept = 0;
  /// TtsOptions::programmatic_launch for the frame graphs recorded from now on (each generate records
  /// its own), so that one model can time both.
  virtual void set_programmatic_launch(bool on) noexcept = 0;
  /// TtsOptions::fused_steps from now on (the frame graphs recorded after it), so that one model can
  /// time both.
  virtual void set_fused_steps(bool on) noexcept = 0;

  /// The talker over the prompt's rows: every row's logits and the last row's hidden state.
  /// @pre 1 <= rows <= max_prompt; ids within their vocabularies [tts.input].
  [[nodiscard]] virtual TalkerLogits talker_logits(const TtsPrompt& prompt) = 0;
  /// The code predictor teacher-forced on the last talker_logits' hidden state and a frame's codes
  /// (codes[0] the talker's first code, then codes 1 .. groups - 1): the logits of codes 1 ..
  /// groups - 1, [groups - 1, codebook entries], as the reference's generate computes each.
  /// @pre talker_logits ran; codes.size() == num_code_groups, each in its vocabulary [tts.input].
  [[nodiscard]] virtual std::vector<float> predictor_logits(std::span<const std::int32_t> codes) = 0;
  /// The frames' codes for the prompt, [frames][num_code_groups], until the talker draws eos or
  /// max_new_tokens - 1 frames (the reference completes no frame for its last drawn code).
  /// @pre the prompt fits max_prompt, max_new_tokens >= 1 [tts.input].
  [[nodiscard]] std::vector<std::vector<std::int32_t>> generate(const TtsPrompt& prompt, const TtsSampling& sampling) {
    return generate(prompt, sampling, FrameSink{});
  }
  /// generate, handing each frame to `on_frame` (when set) as it is drawn; the frames returned are those
  /// handed over.
  [[nodiscard]] virtual std::vector<std::vector<std::int32_t>> generate(const TtsPrompt& prompt,
                                                                        const TtsSampling& sampling,
                                                                        const FrameSink& on_frame) = 0;
  /// A frame phase by phase (bench --breakdown): the frame recorded with an event between every two
  /// phases (so without PDL), replayed `replays` times after a warm-up, each replay drawing one more
  /// frame after the last generate's; per phase the median of its sum over the frame.
  /// @pre generate ran and its frames plus replays + 2 fit max_frames; replays >= 1 [tts.input].
  [[nodiscard]] virtual std::vector<StepPhase> profile_frame(int replays) = 0;
  /// A frame as it runs (bench --marginal): the frame's graph, PDL and all, replayed `replays` times
  /// whole and with each of profile_frame's phases' launches disabled in turn, each replay drawing one
  /// more frame; each phase's cost to the frame (models/common/step_marks.cuh's marginal).
  /// @pre generate ran, and its frames plus every replay fit max_frames [tts.input, models.profile].
  [[nodiscard]] virtual MarginalProfile marginal_frame(int replays) = 0;
};

}  // namespace cute_cpp::models::qwen3_tts
