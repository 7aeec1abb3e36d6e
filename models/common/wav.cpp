// SPDX-License-Identifier: Apache-2.0
// models/common/wav.cpp: 16-bit PCM WAV writing.
#include "models/common/wav.hpp"

#include <cmath>      // std::lround, std::isnan
#include <cstdint>    // std::uint16_t, std::uint32_t
#include <fstream>    // std::ofstream
#include <stdexcept>  // std::invalid_argument, std::runtime_error
#include <string>     // std::string, std::to_string

namespace cute_cpp::models {

std::int16_t pcm16(float x) noexcept {
  if (std::isnan(x)) return 0;
  float const c = x < -1.0f ? -1.0f : (x > 1.0f ? 1.0f : x);
  return std::int16_t(std::lround(double(c) * 32767.0));
}

std::vector<std::byte> wav_pcm16(std::span<const float> samples, int sample_rate) {
  std::uint64_t const data = std::uint64_t(samples.size()) * 2;
  if (sample_rate <= 0 || data > 0xFFFFFFFFull - 36)
    throw std::invalid_argument(std::string("cute-cpp [wav.size]: a WAV file needs a positive sample rate and at "
                                            "most 2^32 - 37 data bytes") +
                                " (rate " + std::to_string(sample_rate) + ", " + std::to_string(data) + " bytes)");
  std::vector<std::byte> out;
  out.reserve(std::size_t(44 + data));
  auto const text = [&](const char* s) {
    for (int i = 0; i < 4; ++i) out.push_back(std::byte(s[i]));
  };
  auto const le = [&](std::uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(std::byte((v >> (8 * i)) & 0xFF));
  };
  text("RIFF"), le(std::uint32_t(36 + data), 4), text("WAVE");
  text("fmt "), le(16, 4), le(1, 2), le(1, 2);  // PCM, one channel
  le(std::uint32_t(sample_rate), 4), le(std::uint32_t(sample_rate) * 2, 4), le(2, 2), le(16, 2);
  text("data"), le(std::uint32_t(data), 4);
  for (float const x : samples) le(std::uint16_t(pcm16(x)), 2);
  return out;
}

void write_wav(const std::filesystem::path& path, std::span<const float> samples, int sample_rate) {
  std::vector<std::byte> const bytes = wav_pcm16(samples, sample_rate);
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!f) throw std::runtime_error(std::string("cute-cpp [wav.write]: the WAV file must be writable") + ": " + path.string());
}

}  // namespace cute_cpp::models
