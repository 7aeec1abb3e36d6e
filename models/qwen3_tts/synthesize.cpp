// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/synthesize.cpp: the merge point with the codec decoder (synthesize.hpp).
#include "models/qwen3_tts/synthesize.hpp"

#include <stdexcept>  // std::runtime_error

#include "models/common/wav.hpp"

// CUTE_CPP_TTS_CODEC_DECODER: set by models/CMakeLists.txt where the build has the decoder's library.
#if defined(CUTE_CPP_TTS_CODEC_DECODER)
#include "models/qwen3_tts/codec.hpp"  // CodecDecoder
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
  CodecDecoder decoder = CodecDecoder::load(folder / "speech_tokenizer");
  // The decoder takes codes [batch, num_quantizers, frames] (the reference's layout); the talker
  // gives [frames][groups].
  std::int64_t const count = std::int64_t(frames.size());
  std::size_t const groups = frames.empty() ? 0 : frames[0].size();
  std::vector<std::int32_t> codes(groups * std::size_t(count));
  for (std::size_t f = 0; f < frames.size(); ++f)
    for (std::size_t g = 0; g < groups; ++g) codes[g * std::size_t(count) + f] = frames[f][g];
  // In the reference's windows (300 frames, 25 of left context), as its tokenizer decodes.
  std::vector<float> const samples = decoder.decode_chunked(codes, 1, count);
  write_wav(out, samples, int(decoder.config().output_sample_rate));
#else
  (void)folder, (void)frames, (void)out;
#endif
}

}  // namespace cute_cpp::models::qwen3_tts
