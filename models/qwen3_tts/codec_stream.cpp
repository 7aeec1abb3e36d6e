// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/codec_stream.cpp: the chunked and the streaming decode on top of
// CodecDecoder::decode: the windows come from chunks.hpp (plan_chunks, ChunkStreamer), each window's
// codes are cut from the codes seen so far, decoded whole, and its new frames' samples kept.
#include "models/qwen3_tts/codec.hpp"

#include <algorithm>  // std::copy
#include <stdexcept>  // std::invalid_argument
#include <string>     // std::to_string

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

/// Copies the kept samples of a window's waveform [batch, window samples] to out [batch, out_stride]
/// at `at`.
void keep_samples(std::vector<float> const& wav, ChunkWindow const& w, int batch, std::int64_t spf,
                  std::vector<float>& out, std::int64_t out_stride, std::int64_t at) {
  std::int64_t const window_samples = w.window_frames() * spf, skip = w.skip_samples(spf), n = w.new_frames() * spf;
  for (std::int64_t b = 0; b < batch; ++b) {
    auto const src = wav.begin() + b * window_samples + skip;
    std::copy(src, src + n, out.begin() + b * out_stride + at);
  }
}

void check_codes_size(std::span<const std::int32_t> codes, int batch, std::int64_t quantizers, std::int64_t frames) {
  if (batch < 1 || frames < 0 || std::int64_t(codes.size()) != batch * quantizers * frames)
    throw std::invalid_argument(std::string(kRuleCodes) + " (got " + std::to_string(codes.size()) +
                                " codes for batch " + std::to_string(batch) + ", " + std::to_string(quantizers) +
                                " quantizers, " + std::to_string(frames) + " frames)");
}

}  // namespace

std::vector<float> CodecDecoder::decode_chunked(std::span<const std::int32_t> codes, int batch, std::int64_t frames,
                                                std::int64_t chunk_size, std::int64_t left_context) {
  std::int64_t const q = config().num_quantizers, spf = samples_per_frame();
  check_codes_size(codes, batch, q, frames);
  std::vector<float> out(std::size_t(batch * frames * spf));
  for (ChunkWindow const& w : plan_chunks(frames, chunk_size, left_context)) {
    auto const window = window_codes(codes, batch, q, frames, w.window_first(), w.window_frames());
    keep_samples(decode(window, batch, w.window_frames()), w, batch, spf, out, frames * spf, w.first * spf);
  }
  return out;
}

CodecStream::CodecStream(CodecDecoder& decoder, int batch, std::int64_t chunk_size, std::int64_t left_context)
    : decoder_(&decoder), batch_(batch), quantizers_(decoder.config().num_quantizers),
      streamer_(chunk_size, left_context) {
  if (batch < 1) throw std::invalid_argument(std::string(kRuleCodes) + " (a stream of batch " + std::to_string(batch) + ")");
}

std::vector<float> CodecStream::push(std::span<const std::int32_t> codes, std::int64_t frames) {
  check_codes_size(codes, batch_, quantizers_, frames);
  if (streamer_.finished())
    throw std::logic_error(kRuleStreamFinished);
  // Append the frames to the history, dropping what no later window reads.
  std::int64_t const keep_from = std::max(history_first_, streamer_.oldest_needed());
  std::int64_t const kept = history_first_ + history_frames_ - keep_from;
  std::int64_t const total = kept + frames;
  std::vector<std::int32_t> next(std::size_t(batch_ * quantizers_ * total));
  for (std::int64_t row = 0; row < batch_ * quantizers_; ++row) {
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
  std::int64_t const spf = decoder_->samples_per_frame();
  std::int64_t new_frames = 0;
  for (ChunkWindow const& w : windows) new_frames += w.new_frames();
  std::vector<float> out(std::size_t(batch_ * new_frames * spf));
  std::int64_t at = 0;
  for (ChunkWindow const& w : windows) {
    auto const window = window_codes(history_, batch_, quantizers_, history_frames_, w.window_first() - history_first_,
                                     w.window_frames());
    keep_samples(decoder_->decode(window, batch_, w.window_frames()), w, batch_, spf, out, new_frames * spf, at);
    at += w.new_frames() * spf;
  }
  return out;
}

}  // namespace cute_cpp::models::qwen3_tts
