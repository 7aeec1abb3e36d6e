// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/synthesize.cpp: the merge point with the codec decoder (synthesize.hpp).
#include "models/qwen3_tts/synthesize.hpp"

#include <stdexcept>  // std::runtime_error

#include "models/common/wav.hpp"

#if __has_include("models/qwen3_tts/codec_decoder.hpp")
#include "models/qwen3_tts/codec_decoder.hpp"
#define CUTE_CPP_TTS_CODEC_DECODER 1
#endif

namespace cute_cpp::models::qwen3_tts {

bool codec_decoder_built() noexcept {
#if defined(CUTE_CPP_TTS_CODEC_DECODER)
  return true;
#else
  return false;
#endif
}

void require_codec_decoder() {
  if (!codec_decoder_built()) throw std::runtime_error(kCodecDecoderMissing);
}

void synthesize_wav(const std::filesystem::path& folder, const std::vector<std::vector<std::int32_t>>& frames,
                    const std::filesystem::path& out) {
  require_codec_decoder();
#if defined(CUTE_CPP_TTS_CODEC_DECODER)
  // NOTE: the CodecDecoder's interface is the other branch's; this call is the one place to adapt
  // at the merge: the speech tokenizer's folder in, [frames][groups] codes in, 24 kHz samples out.
  auto decoder = CodecDecoder::load(folder / "speech_tokenizer");
  std::vector<float> const samples = decoder->decode(frames);
  write_wav(out, samples, 24000);
#else
  (void)folder, (void)frames, (void)out;
#endif
}

}  // namespace cute_cpp::models::qwen3_tts
