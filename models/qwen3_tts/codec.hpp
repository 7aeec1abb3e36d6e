// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/codec.hpp: Qwen3-TTS's 12 Hz speech-tokenizer decoder ("code2wav") on the GPU
// (sm_90a), as a library for a TTS program: codes [batch, num_quantizers, frames] at 12.5 Hz to a
// 24 kHz waveform [batch, frames * 1920] in [-1, 1], as the reference's Qwen3TTSTokenizerV2Decoder:
//   split RVQ decode -> pre_conv -> pre-transformer (sliding-window causal attention) -> ConvNeXt
//   upsamplers -> decoder blocks (SnakeBeta, causal transposed conv, residual units) -> clamp.
// Whole decodes (decode), the reference's chunked decode (decode_chunked), and a stream that takes
// frames as they come and returns the samples that became final (CodecStream), identical to the
// chunked decode with the same chunk size and left context. No CUDA header: host code includes it.
#include <cstdint>     // std::int32_t, std::int64_t
#include <filesystem>  // std::filesystem::path
#include <memory>      // std::unique_ptr
#include <span>        // std::span
#include <vector>      // std::vector

#include "models/qwen3_tts/config.hpp"  // CodecConfig
#include "models/qwen3_tts/stream.hpp"  // CodecStream, chunked_decode

namespace cute_cpp::models::qwen3_tts {

/// The reference's chunked_decode defaults: 300-frame chunks (24 s) with 25 frames (2 s) of context.
inline constexpr std::int64_t kDefaultChunkFrames = 300, kDefaultLeftContext = 25;

// ---- CodecDecoder ----

/// The decoder with its weights on the current device; one decode at a time (its own stream).
///   auto d = CodecDecoder::load("Qwen3-TTS-Tokenizer-12Hz");
///   std::vector<float> wav = d.decode(codes, 1, 50);   // 50 frames -> 96000 samples
///   auto s = d.stream(1, 12, 25);                      // frames in as they come, samples out per 12 frames
class CodecDecoder {
 public:
  /// config.json and model.safetensors (or a sharded checkpoint) of a tokenizer folder.
  /// @pre the config's rules (parse_codec_config) and the manifest's (CodecWeightManifest::validate).
  [[nodiscard]] static CodecDecoder load(const std::filesystem::path& folder);
  /// Seeded random weights for the config in `path` (config.json or its folder): benchmarks.
  [[nodiscard]] static CodecDecoder random(const std::filesystem::path& path, std::uint64_t seed);

  CodecDecoder(CodecDecoder&&) noexcept;
  CodecDecoder& operator=(CodecDecoder&&) noexcept;
  ~CodecDecoder();

  [[nodiscard]] const CodecConfig& config() const noexcept;
  /// Waveform samples a frame decodes to (1920 published).
  [[nodiscard]] std::int64_t samples_per_frame() const noexcept;

  /// The waveform of `frames` frames of `batch` sequences: codes [batch, num_quantizers, frames]
  /// row-major (the reference's layout) to [batch, frames * samples_per_frame()], clamped to [-1, 1].
  /// The transformer's positions start at 0 (one reference forward call).
  /// @pre codes.size() == batch * num_quantizers * frames, batch >= 1, frames >= 0 [tts-codec.codes];
  ///      every code in [0, codebook_size) [tts-codec.codes].
  [[nodiscard]] std::vector<float> decode(std::span<const std::int32_t> codes, int batch, std::int64_t frames);
  /// The reference's chunked_decode: plan_chunks(frames, chunk_size, left_context), each window
  /// decoded whole and its context's samples dropped; same layout and preconditions as decode().
  [[nodiscard]] std::vector<float> decode_chunked(std::span<const std::int32_t> codes, int batch,
                                                  std::int64_t frames, std::int64_t chunk_size = kDefaultChunkFrames,
                                                  std::int64_t left_context = kDefaultLeftContext);
  /// A stream of `batch` sequences over this decoder (stream.hpp), which must outlive it: its output equals
  /// decode_chunked's with the same chunk size and context. @pre as CodecStream's constructor.
  [[nodiscard]] CodecStream stream(int batch, std::int64_t chunk_size = kDefaultChunkFrames,
                                   std::int64_t left_context = kDefaultLeftContext);
  /// Waits for the device and returns the last decode's device time in milliseconds (CUDA events
  /// around the passes, after the codes' upload).
  [[nodiscard]] float last_decode_ms() const noexcept;

 private:
  struct Impl;
  explicit CodecDecoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace cute_cpp::models::qwen3_tts
