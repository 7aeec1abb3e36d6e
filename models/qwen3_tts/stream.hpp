// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/stream.hpp: the chunked and the streaming decode over any whole decode, host only
// (CodecDecoder supplies the GPU's; tests/cpu/models/tts_codec_test.cpp a fake one): each window of
// chunks.hpp's plan has its codes cut from the codes seen so far, is decoded whole, and keeps the
// samples of its new frames.
#include <cstdint>     // std::int32_t, std::int64_t
#include <functional>  // std::function
#include <span>        // std::span
#include <vector>      // std::vector

#include "models/qwen3_tts/chunks.hpp"  // ChunkStreamer, ChunkWindow

namespace cute_cpp::models::qwen3_tts {

inline constexpr char kRuleCodes[] =
    "cute-cpp [tts-codec.codes]: codes must be [batch, num_quantizers, frames], batch >= 1, frames >= 0, every "
    "code in [0, codebook_size)";

/// A whole decode: codes [batch, quantizers, frames] row-major to a waveform [batch, frames x samples_per_frame].
using DecodeFn = std::function<std::vector<float>(std::span<const std::int32_t> codes, int batch, std::int64_t frames)>;

/// What the windows are cut by: codebooks a frame, samples a frame.
struct CodecShape {
  std::int64_t quantizers = 0;
  std::int64_t samples_per_frame = 0;
};

/// @pre codes.size() == batch x quantizers x frames, batch >= 1, frames >= 0 [tts-codec.codes].
void check_codes_size(std::span<const std::int32_t> codes, int batch, std::int64_t quantizers, std::int64_t frames);

/// The reference's chunked_decode over `decode`: plan_chunks(frames, chunk_size, left_context), each window
/// decoded whole and its context's samples dropped; [batch, frames x samples_per_frame].
///   chunked_decode(decode, {16, 1920}, codes, 1, 700)   // windows [0, 300), [275, 600), [575, 700)
/// @pre as check_codes_size; chunk_size >= 1, left_context >= 0 [tts-codec.chunk].
[[nodiscard]] std::vector<float> chunked_decode(const DecodeFn& decode, CodecShape shape,
                                                std::span<const std::int32_t> codes, int batch, std::int64_t frames,
                                                std::int64_t chunk_size, std::int64_t left_context);

// ---- CodecStream ----

/// Streaming decode: frames are pushed as they arrive (all `batch` sequences in step); whenever a chunk of
/// chunk_size frames is whole it is decoded with its left context and its samples are returned; finish()
/// decodes the rest. The concatenated output equals chunked_decode(all codes, chunk_size, left_context)
/// sample for sample (the same windows through the same decode).
///   auto s = decoder.stream(1, 12, 25);          // CodecDecoder::stream: 12-frame chunks, about 1 s each
///   for (frame : frames) play(s.push(frame, 1)); // 0 or 12 x 1920 samples a sequence each time
///   play(s.finish());
class CodecStream {
 public:
  /// @pre batch >= 1 [tts-codec.codes]; chunk_size >= 1, left_context >= 0 [tts-codec.chunk].
  CodecStream(DecodeFn decode, CodecShape shape, int batch, std::int64_t chunk_size, std::int64_t left_context);

  /// Appends `frames` frames, codes [batch, quantizers, frames] row-major; returns the new final samples
  /// [batch, k x samples_per_frame] (k = the frames of the chunks that became whole, often 0).
  /// @pre as check_codes_size; not finished [tts-codec.stream-finished].
  [[nodiscard]] std::vector<float> push(std::span<const std::int32_t> codes, std::int64_t frames);
  /// The samples of the frames not yet decoded, [batch, k x samples_per_frame]; the stream ends.
  [[nodiscard]] std::vector<float> finish();
  [[nodiscard]] std::int64_t frames_pushed() const noexcept { return streamer_.received(); }

 private:
  std::vector<float> decode_windows(std::vector<ChunkWindow> const& windows);

  DecodeFn decode_;
  CodecShape shape_;
  int batch_;
  ChunkStreamer streamer_;
  std::int64_t history_first_ = 0;     ///< the frame history_'s first column holds
  std::int64_t history_frames_ = 0;
  std::vector<std::int32_t> history_;  ///< [batch, quantizers, history_frames_]: what later windows read
};

}  // namespace cute_cpp::models::qwen3_tts
