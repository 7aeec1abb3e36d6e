// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/prompt.hpp: the talker's input for a text, built as qwen-tts 0.1.1's
// Qwen3TTSForConditionalGeneration.generate builds it for the CustomVoice and VoiceDesign models
// (no voice cloning): each input row is the sum of a text part, text_projection(text_embedding(id)),
// and a codec part, codec_embedding(id); either may be absent. Host only.
//
// For the text "<|im_start|>assistant\n{text}<|im_end|>\n<|im_start|>assistant\n" (ids x, text ids
// x[3 : n-5]) and codec prefix c = [nothink, think_bos, think_eos] (or [think, think_bos, language,
// think_eos] with a language), then the speaker's id if any, then [pad, bos]:
//   instruct rows (text only), if any
//   x[0], x[1], x[2]                                     (text only: "<|im_start|>assistant\n")
//   tts_pad + c[i] for each codec id but the last two, tts_bos + pad
//   non-streaming: x[3+j] + pad for each text id, tts_eos + pad, tts_pad + bos; each later frame
//                  adds tts_pad to its codec sum
//   streaming:     x[3] + bos; frame f adds x[4+f] while text is left, then tts_eos, then tts_pad
#include <cstdint>  // std::int32_t
#include <string>   // std::string
#include <vector>   // std::vector

#include "models/qwen3_tts/tts_config.hpp"  // Qwen3TtsConfig

namespace cute_cpp::models::qwen3_tts {

/// One input row of the talker: text_projection(text_embedding(text)) + codec_embedding(codec),
/// where -1 leaves that part out.
struct PromptRow {
  std::int32_t text = -1;
  std::int32_t codec = -1;
  bool operator==(const PromptRow&) const = default;
};

/// The talker's prompt and what each generated frame's input adds to its codec sum: text id
/// trailing[f] for frame f < trailing.size(), tts_pad (pad_text) after.
struct TtsPrompt {
  std::vector<PromptRow> rows;
  std::vector<std::int32_t> trailing;
  std::int32_t pad_text = -1;
};

/// What to say and how.
struct PromptRequest {
  std::vector<std::int32_t> text_ids;      ///< the tokenized assistant_text(text)
  std::vector<std::int32_t> instruct_ids;  ///< the tokenized instruct_text(instruct), or empty
  std::string speaker;                     ///< a name in spk_id (any case), or empty for none
  std::string language = "auto";           ///< "auto" or a name in codec_language_id (any case)
  bool non_streaming = true;               ///< the reference's generate_custom_voice default
};

/// The texts the reference tokenizes.
[[nodiscard]] std::string assistant_text(const std::string& text);
[[nodiscard]] std::string instruct_text(const std::string& instruct);

/// The codec id of the language the prompt names: none for "auto", else codec_language_id's; a
/// speaker with a dialect overrides "auto" and "chinese" with the dialect's id, as the reference does.
/// Returns -1 for none. @pre a known speaker and language [tts.speaker] / [tts.language].
[[nodiscard]] std::int32_t language_codec_id(const Qwen3TtsConfig& config, const std::string& speaker,
                                             const std::string& language);

/// The prompt for `request` (layout above).
/// @pre text_ids has at least 9 ids (the 3 of the role, one text id, the 5 of the closing turn and
///      the next header) [tts.prompt]; every id is in [0, text_vocab_size) [tts.prompt];
///      the speaker and language are known [tts.speaker] / [tts.language].
[[nodiscard]] TtsPrompt build_prompt(const Qwen3TtsConfig& config, const PromptRequest& request);

}  // namespace cute_cpp::models::qwen3_tts
