// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/stream.cpp: the chunked and the streaming decode over a whole decode (stream.hpp): the
// windows come from chunks.hpp (plan_chunks, ChunkStreamer), each window's codes are cut from the codes
// seen so far, decoded whole, and its new frames' samples kept.
#include "models/qwen3_tts/stream.hpp"

#include <algorithm>  // std::copy, std::max
#include <stdexcept>  // std::invalid_argument, std::logic_error
#include <string>     // std::string, std::to_string
#include <utility>    // std::move

namespace cute_cpp::models::qwen3_tts {

namespace {

/// codes[b, q, first + j] for j < count, from a [batch, quantizers, frames] array.
std::vector<std::int32_t> window_codes(std::span<const std::int32_t> codes, int batch, std::int64_t quantizers,
                                       std::int64_t frames, std::int64_t first, std::int64_t count) {
  std::vector<std::int32_t> out(std::size_t(batch * quantizers * count));
  for (std::int64_t row = 0; row < batch * quantizers; ++row) {
    auto const src = codes.begin() + row * frames + first;
    std::copy(src, src + count, out.begin() + row * count);
  }
  return out;
}

/// Decodes window w of `codes` (which start at frame `codes_first`) and copies the samples of its new
/// frames to out [batch, out_stride] at column `at`.
void decode_window(const DecodeFn& decode, CodecShape shape, std::span<const std::int32_t> codes, int batch,
                   std::int64_t frames, std::int64_t codes_first, ChunkWindow const& w, std::vector<float>& out,
                   std::int64_t out_stride, std::int64_t at) {
  auto const window = window_codes(codes, batch, shape.quantizers, frames, w.window_first() - codes_first,
                                   w.window_frames());
  std::vector<float> const wav = decode(window, batch, w.window_frames());
  std::int64_t const spf = shape.samples_per_frame, window_samples = w.window_frames() * spf;
  if (std::int64_t(wav.size()) != batch * window_samples)
    throw std::logic_error("cute-cpp: a window's decode returned " + std::to_string(wav.size()) + " samples, not " +
                           std::to_string(batch * window_samples));
  std::int64_t const skip = w.skip_samples(spf), n = w.new_frames() * spf;
  for (std::int64_t b = 0; b < batch; ++b) {
    auto const src = wav.begin() + b * window_samples + skip;
    std::copy(src, src + n, out.begin() + b * out_stride + at);
  }
}

}  // namespace

void check_codes_size(std::span<const std::int32_t> codes, int batch, std::int64_t quantizers, std::int64_t frames) {
  if (batch < 1 || frames < 0 || std::int64_t(codes.size()) != batch * quantizers * frames)
    throw std::invalid_argument(std::string(kRuleCodes) + " (got " + std::to_string(codes.size()) +
                                " codes for batch " + std::to_string(batch) + ", " + std::to_string(quantizers) +
                                " quantizers, " + std::to_string(frames) + " frames)");
}

std::vector<float> chunked_decode(const DecodeFn& decode, CodecShape shape, std::span<const std::int32_t> codes,
                                  int batch, std::int64_t frames, std::int64_t chunk_size, std::int64_t left_context) {
  check_codes_size(codes, batch, shape.quantizers, frames);
  std::int64_t const stride = frames * shape.samples_per_frame;
  std::vector<float> out(std::size_t(batch * stride));
  for (ChunkWindow const& w : plan_chunks(frames, chunk_size, left_context))
    decode_window(decode, shape, codes, batch, frames, 0, w, out, stride, w.first * shape.samples_per_frame);
  return out;
}

CodecStream::CodecStream(DecodeFn decode, CodecShape shape, int batch, std::int64_t chunk_size,
                         std::int64_t left_context)
    : decode_(std::move(decode)), shape_(shape), batch_(batch), streamer_(chunk_size, left_context) {
  if (batch < 1) throw std::invalid_argument(std::string(kRuleCodes) + " (a stream of batch " + std::to_string(batch) + ")");
}

std::vector<float> CodecStream::push(std::span<const std::int32_t> codes, std::int64_t frames) {
  check_codes_size(codes, batch_, shape_.quantizers, frames);
  if (streamer_.finished()) throw std::logic_error(kRuleStreamFinished);
  // Append the frames to the history, dropping what no later window reads.
  std::int64_t const keep_from = std::max(history_first_, streamer_.oldest_needed());
  std::int64_t const kept = history_first_ + history_frames_ - keep_from;
  std::int64_t const total = kept + frames;
  std::vector<std::int32_t> next(std::size_t(batch_ * shape_.quantizers * total));
  for (std::int64_t row = 0; row < batch_ * shape_.quantizers; ++row) {
    auto const old = history_.begin() + row * history_frames_ + (keep_from - history_first_);
    std::copy(old, old + kept, next.begin() + row * total);
    auto const fresh = codes.begin() + row * frames;
    std::copy(fresh, fresh + frames, next.begin() + row * total + kept);
  }
  history_ = std::move(next);
  history_first_ = keep_from;
  history_frames_ = total;
  return decode_windows(streamer_.push(frames));
}

std::vector<float> CodecStream::finish() { return decode_windows(streamer_.finish()); }

std::vector<float> CodecStream::decode_windows(std::vector<ChunkWindow> const& windows) {
  std::int64_t new_frames = 0;
  for (ChunkWindow const& w : windows) new_frames += w.new_frames();
  std::int64_t const stride = new_frames * shape_.samples_per_frame;
  std::vector<float> out(std::size_t(batch_ * stride));
  std::int64_t at = 0;
  for (ChunkWindow const& w : windows) {
    decode_window(decode_, shape_, history_, batch_, history_frames_, history_first_, w, out, stride, at);
    at += w.new_frames() * shape_.samples_per_frame;
  }
  return out;
}

}  // namespace cute_cpp::models::qwen3_tts
