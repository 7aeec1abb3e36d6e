// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/wav.hpp: RIFF/WAVE files of 16-bit PCM, mono, from float samples (the speech
// decoders' output). Host only.
#include <cstddef>     // std::byte
#include <cstdint>     // std::int16_t
#include <filesystem>  // std::filesystem::path
#include <span>        // std::span
#include <vector>      // std::vector

namespace cute_cpp::models {

/// A float sample as 16-bit PCM: clamped to [-1, 1], times 32767, rounded to nearest (half away
/// from zero); NaN gives 0.
///   pcm16(1.0f) -> 32767   pcm16(-2.0f) -> -32767   pcm16(0.5f) -> 16384
[[nodiscard]] std::int16_t pcm16(float x) noexcept;

/// The bytes of a mono 16-bit PCM WAV file: the 44-byte header (RIFF, "WAVE", a 16-byte "fmt "
/// chunk of format 1, then "data") and the samples, little-endian.
/// @pre sample_rate > 0 and the data fits a 32-bit RIFF size [wav.size] (std::invalid_argument).
[[nodiscard]] std::vector<std::byte> wav_pcm16(std::span<const float> samples, int sample_rate);

/// Writes wav_pcm16(samples, sample_rate) to `path`. @pre writable [wav.write] (std::runtime_error).
void write_wav(const std::filesystem::path& path, std::span<const float> samples, int sample_rate);

}  // namespace cute_cpp::models
