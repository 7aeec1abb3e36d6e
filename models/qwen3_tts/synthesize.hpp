// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/synthesize.hpp: codes to a WAV file through the speech tokenizer's decoder
// (code2wav: CodecDecoder of models/qwen3_tts/codec.hpp, built in the tts-codec branch). Without that
// header this branch's synthesize stops with the error below before any GPU work.
#include <cstdint>     // std::int32_t
#include <filesystem>  // std::filesystem::path
#include <vector>      // std::vector

namespace cute_cpp::models::qwen3_tts {

/// The error synthesize reports when the codec decoder is not part of the build.
inline constexpr char kCodecDecoderMissing[] = "cute-cpp: tts.codec-decoder: not built in this branch";

/// Whether this build holds the codec decoder.
[[nodiscard]] bool codec_decoder_built() noexcept;
/// @pre codec_decoder_built() (else std::runtime_error(kCodecDecoderMissing)).
void require_codec_decoder();
/// frames [frames][groups] decoded by the checkpoint's speech tokenizer (`folder`/speech_tokenizer, as
/// the reference loads it) to its output sample rate (24 kHz published), mono, written as 16-bit PCM
/// (models/common/wav.hpp). @pre require_codec_decoder().
void synthesize_wav(const std::filesystem::path& folder, const std::vector<std::vector<std::int32_t>>& frames,
                    const std::filesystem::path& out);

}  // namespace cute_cpp::models::qwen3_tts
