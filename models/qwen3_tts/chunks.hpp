// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3_tts/chunks.hpp: the decoder's length arithmetic and the chunk bookkeeping of its
// streaming decode, host only (tests/cpu/models/tts_codec_test.cpp checks it):
//   - the reference's padding rules: a causal conv pads (k-1)d on the left and, at stride s, the
//     extra right padding that makes the last window whole (0 at stride 1); a causal transposed
//     conv trims k - s samples on the right, so L inputs give L s outputs;
//   - chunked decoding as the reference's chunked_decode does it: chunks of chunk_size frames, each
//     decoded from scratch with up to left_context frames before it, the context's samples dropped;
//   - ChunkStreamer: the same windows from frames that arrive a few at a time.
#include <cstdint>  // std::int64_t
#include <vector>   // std::vector

namespace cute_cpp::models::qwen3_tts {

inline constexpr char kRuleChunk[] =
    "cute-cpp [tts-codec.chunk]: a chunked decode needs chunk_size >= 1 and left_context >= 0, and pushes of "
    "0 or more frames";
inline constexpr char kRuleStreamFinished[] =
    "cute-cpp [tts-codec.stream-finished]: a stream takes no frames after finish()";

// ---- padding arithmetic ----

/// The padding of the reference's causal conv (CausalConvNet) of kernel k, dilation d, stride s on
/// `length` inputs: left = (k-1)d + 1 - s, right = what makes the strided windows end at the input's
/// end. At stride 1 (every conv of the decoder) right is 0 and there are `length` outputs.
///   causal_conv_padding(10, 7, 3, 1)  ->  {18, 0}      causal_conv_padding(10, 4, 1, 2)  ->  {2, 0}
///   causal_conv_padding(9, 4, 1, 2)   ->  {2, 1}
struct ConvPadding {
  std::int64_t left = 0, right = 0;
  bool operator==(const ConvPadding&) const = default;
};
/// @pre length >= 0, kernel, dilation, stride >= 1, stride <= (kernel-1) dilation + 1.
[[nodiscard]] ConvPadding causal_conv_padding(std::int64_t length, std::int64_t kernel, std::int64_t dilation,
                                              std::int64_t stride);
/// Outputs of a conv of `padding` over `length` inputs: (length + left + right - k_eff) / s + 1.
[[nodiscard]] std::int64_t causal_conv_output_length(std::int64_t length, std::int64_t kernel, std::int64_t dilation,
                                                     std::int64_t stride);
/// Outputs of the reference's causal transposed conv (CausalTransConvNet): ConvTranspose1d's
/// (length - 1) s + k, less the k - s trimmed on the right: length s. @pre kernel >= stride >= 1.
[[nodiscard]] std::int64_t causal_conv_transpose_output_length(std::int64_t length, std::int64_t kernel,
                                                               std::int64_t stride);

// ---- chunked decoding ----

/// One decode of the chunked scheme: the frames [first - context, last) run through the whole
/// decoder, and the samples of the new frames [first, last) are kept.
struct ChunkWindow {
  std::int64_t first = 0;    ///< first new frame
  std::int64_t last = 0;     ///< one past the last new frame
  std::int64_t context = 0;  ///< frames decoded before `first` and dropped: min(left_context, first)
  [[nodiscard]] std::int64_t window_first() const noexcept { return first - context; }
  [[nodiscard]] std::int64_t window_frames() const noexcept { return last - window_first(); }
  [[nodiscard]] std::int64_t new_frames() const noexcept { return last - first; }
  /// The first kept sample of the window's waveform: context frames' worth.
  [[nodiscard]] std::int64_t skip_samples(std::int64_t samples_per_frame) const noexcept {
    return context * samples_per_frame;
  }
  bool operator==(const ChunkWindow&) const = default;
};

/// The chunking of the reference's chunked_decode: chunks [k chunk_size, min((k+1) chunk_size, frames)),
/// each with min(left_context, its first frame) frames of context.
///   plan_chunks(700, 300, 25)  ->  {0, 300, 0}, {300, 600, 25}, {600, 700, 25}
/// @pre frames >= 0, chunk_size >= 1, left_context >= 0 [tts-codec.chunk].
[[nodiscard]] std::vector<ChunkWindow> plan_chunks(std::int64_t frames, std::int64_t chunk_size,
                                                   std::int64_t left_context);

/// The streaming form of plan_chunks: frames are pushed as they arrive; a window is ready as soon as
/// its chunk is whole, and finish() gives the last, partial one. The windows are plan_chunks' for
/// the total pushed, so the streamed waveform is the chunked decode's, sample for sample.
///   ChunkStreamer s(300, 25);  s.push(299) -> {}   s.push(2) -> {{0, 300, 0}}   s.finish() -> {{300, 301, 25}}
class ChunkStreamer {
 public:
  /// @pre chunk_size >= 1, left_context >= 0 [tts-codec.chunk].
  ChunkStreamer(std::int64_t chunk_size, std::int64_t left_context);
  /// Records `frames` more frames; returns the windows that became whole. @pre frames >= 0, not finished.
  std::vector<ChunkWindow> push(std::int64_t frames);
  /// The window of the frames not yet decoded (none when there are none); the stream then ends.
  std::vector<ChunkWindow> finish();
  [[nodiscard]] std::int64_t received() const noexcept { return received_; }
  /// The first frame a later window can still read: frames before it may be forgotten.
  [[nodiscard]] std::int64_t oldest_needed() const noexcept;
  [[nodiscard]] bool finished() const noexcept { return finished_; }

 private:
  std::int64_t chunk_size_, left_context_;
  std::int64_t received_ = 0, next_ = 0;
  bool finished_ = false;
};

}  // namespace cute_cpp::models::qwen3_tts
