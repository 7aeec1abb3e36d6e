// SPDX-License-Identifier: Apache-2.0
// models/qwen3_tts/chunks.cpp: the decoder's length arithmetic and chunk bookkeeping. The padding
// rule is the reference's CausalConvNet._get_extra_padding_for_conv1d in integers; the chunking is
// its Qwen3TTSTokenizerV2Decoder.chunked_decode.
#include "models/qwen3_tts/chunks.hpp"

#include <algorithm>  // std::min
#include <stdexcept>  // std::invalid_argument, std::logic_error
#include <string>     // std::to_string

namespace cute_cpp::models::qwen3_tts {

namespace {

constexpr char kRuleConvShape[] =
    "cute-cpp [tts-codec.conv-shape]: a causal conv needs length >= 0, kernel, dilation, stride >= 1 and stride at most "
    "its effective kernel (k-1)d+1; a causal transposed conv needs kernel >= stride";

/// ceil(a / b) for b > 0 and any a (the reference takes math.ceil of a float quotient).
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

void check_chunking(std::int64_t chunk_size, std::int64_t left_context) {
  if (chunk_size < 1 || left_context < 0)
    throw std::invalid_argument(std::string(kRuleChunk) + " (chunk_size " + std::to_string(chunk_size) +
                                ", left_context " + std::to_string(left_context) + ")");
}

void check_conv(std::int64_t length, std::int64_t kernel, std::int64_t dilation, std::int64_t stride) {
  std::int64_t const effective = (kernel - 1) * dilation + 1;
  if (length < 0 || kernel < 1 || dilation < 1 || stride < 1 || stride > effective)
    throw std::invalid_argument(std::string(kRuleConvShape) + " (length " + std::to_string(length) + ", kernel " +
                                std::to_string(kernel) + ", dilation " +
                                std::to_string(dilation) + ", stride " + std::to_string(stride) + ")");
}
}  // namespace

ConvPadding causal_conv_padding(std::int64_t length, std::int64_t kernel, std::int64_t dilation, std::int64_t stride) {
  check_conv(length, kernel, dilation, stride);
  std::int64_t const effective = (kernel - 1) * dilation + 1;
  std::int64_t const left = effective - stride;
  // The reference: frames = ceil((length - k + left) / s + 1); ideal = (frames - 1) s + (k - left),
  // and k - left = s, so ideal = frames s.
  std::int64_t const frames = ceil_div(length - effective + left, stride) + 1;
  return {left, frames * stride - length};
}

std::int64_t causal_conv_output_length(std::int64_t length, std::int64_t kernel, std::int64_t dilation,
                                       std::int64_t stride) {
  ConvPadding const p = causal_conv_padding(length, kernel, dilation, stride);
  std::int64_t const effective = (kernel - 1) * dilation + 1;
  return (length + p.left + p.right - effective) / stride + 1;
}

std::int64_t causal_conv_transpose_output_length(std::int64_t length, std::int64_t kernel, std::int64_t stride) {
  if (length < 0 || stride < 1 || kernel < stride)
    throw std::invalid_argument(std::string(kRuleConvShape) + " (length " + std::to_string(length) + ", kernel " +
                                std::to_string(kernel) + ", stride " + std::to_string(stride) + ")");
  if (length == 0) return 0;
  std::int64_t const full = (length - 1) * stride + kernel;  // ConvTranspose1d without padding
  return full - (kernel - stride);                           // the right trim
}

std::vector<ChunkWindow> plan_chunks(std::int64_t frames, std::int64_t chunk_size, std::int64_t left_context) {
  check_chunking(chunk_size, left_context);
  if (frames < 0) throw std::invalid_argument(std::string(kRuleChunk) + " (frames " + std::to_string(frames) + " < 0)");
  std::vector<ChunkWindow> out;
  for (std::int64_t first = 0; first < frames; first += chunk_size)
    out.push_back({first, std::min(first + chunk_size, frames), std::min(left_context, first)});
  return out;
}

ChunkStreamer::ChunkStreamer(std::int64_t chunk_size, std::int64_t left_context)
    : chunk_size_(chunk_size), left_context_(left_context) {
  check_chunking(chunk_size, left_context);
}

std::vector<ChunkWindow> ChunkStreamer::push(std::int64_t frames) {
  if (finished_) throw std::logic_error(kRuleStreamFinished);
  if (frames < 0) throw std::invalid_argument(std::string(kRuleChunk) + " (a push of " + std::to_string(frames) + ")");
  received_ += frames;
  std::vector<ChunkWindow> out;
  while (received_ - next_ >= chunk_size_) {
    out.push_back({next_, next_ + chunk_size_, std::min(left_context_, next_)});
    next_ += chunk_size_;
  }
  return out;
}

std::vector<ChunkWindow> ChunkStreamer::finish() {
  if (finished_) return {};
  finished_ = true;
  if (received_ == next_) return {};
  ChunkWindow const last{next_, received_, std::min(left_context_, next_)};
  next_ = received_;
  return {last};
}

std::int64_t ChunkStreamer::oldest_needed() const noexcept { return next_ - std::min(left_context_, next_); }

}  // namespace cute_cpp::models::qwen3_tts
