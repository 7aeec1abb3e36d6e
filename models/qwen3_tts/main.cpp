// SPDX-License-Identifier: Apache-2.0
// cute-cpp-tts-codec: Qwen3-TTS's 12 Hz speech-tokenizer decoder from the command line, for checks
// and benchmarks (the TTS program links the library: codec.hpp).
//   cute-cpp-tts-codec decode --model DIR --codes FILE --batch B --frames T --out FILE
//                             [--chunked | --stream PUSH] [--chunk N] [--left-context N]
//   cute-cpp-tts-codec bench --model DIR [--random-weights SEED] [--batch B] [--frames T] [--iters N]
// decode reads codes as little-endian int32 [B, num_quantizers, T] and writes the waveform as
// float32 [B, T * samples_per_frame]: whole (one decode of all frames), --chunked (the reference's
// chunked_decode), or --stream PUSH (a CodecStream fed PUSH frames at a time; the same samples as
// --chunked). Errors print their `cute-cpp [rule]: ...` message and exit 2.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "models/common/cli.hpp"
#include "models/common/error.hpp"
#include "models/qwen3_tts/codec.hpp"

namespace {

using namespace cute_cpp::models;
using namespace cute_cpp::models::qwen3_tts;

constexpr const char* kRuleUsage =
    "cute-cpp [tts-codec.usage]: the command line of cute-cpp-tts-codec (see its --help)";
constexpr const char* kUsage =
    "usage: cute-cpp-tts-codec decode --model DIR --codes FILE --batch B --frames T --out FILE\n"
    "                             [--chunked | --stream PUSH] [--chunk 300] [--left-context 25]\n"
    "       cute-cpp-tts-codec bench --model DIR [--random-weights SEED] [--batch 1] [--frames 325] [--iters 20]\n"
    "--codes FILE: little-endian int32 [B, num_quantizers, T]; --out FILE: float32 [B, T * samples per frame]\n"
    "--chunked: the reference's chunked decode (chunks of --chunk frames with --left-context frames before)\n"
    "--stream PUSH: a stream fed PUSH frames at a time (the same samples as --chunked)\n"
    "--random-weights SEED: bench only: DIR needs config.json alone; the weights are filled on the device\n";

std::vector<std::int32_t> read_codes(const std::string& path, std::size_t count) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw LoadError(kRuleUsage, "cannot read --codes " + in_quotes(path));
  auto const bytes = std::size_t(in.tellg());
  if (bytes != count * 4)
    throw LoadError(kRuleUsage, "--codes " + in_quotes(path) + " holds " + std::to_string(bytes) + " bytes; --batch, " +
                                    "num_quantizers and --frames give " + std::to_string(count * 4));
  std::vector<std::int32_t> codes(count);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(codes.data()), std::streamsize(bytes));
  return codes;
}

/// The stream's pieces [batch, n_i] joined per sequence into [batch, sum n_i].
std::vector<float> join(std::vector<std::vector<float>> const& pieces, int batch) {
  std::size_t total = 0;
  for (auto const& p : pieces) total += p.size();
  std::vector<float> out(total);
  std::size_t const per_sequence = total / std::size_t(batch);
  std::size_t at = 0;
  for (auto const& p : pieces) {
    std::size_t const n = p.size() / std::size_t(batch);
    for (int b = 0; b < batch; ++b)
      std::copy(p.begin() + std::ptrdiff_t(b * n), p.begin() + std::ptrdiff_t((b + 1) * n),
                out.begin() + std::ptrdiff_t(b * per_sequence + at));
    at += n;
  }
  return out;
}

int run_decode(const CliArgs& a) {
  int const batch = int(a.number("batch", 1));
  std::int64_t const frames = a.number("frames", -1);
  if (batch < 1 || frames < 0)
    throw LoadError(kRuleUsage, "--batch must be at least 1 and --frames given and at least 0\n" + std::string(kUsage));
  std::int64_t const chunk = a.number("chunk", kDefaultChunkFrames), left = a.number("left-context", kDefaultLeftContext);
  std::int64_t const push = a.number("stream", 1);
  if (chunk < 1 || left < 0 || push < 1)
    throw LoadError(kRuleUsage, "--chunk and --stream take at least 1 and --left-context at least 0\n" +
                                    std::string(kUsage));
  // The config and the codes are checked before the weights go to the device.
  std::int64_t const q = read_codec_config(a.get("model")).num_quantizers;
  auto const codes = read_codes(a.get("codes"), std::size_t(batch * q * frames));
  auto decoder = CodecDecoder::load(a.get("model"));
  std::vector<float> wav;
  if (a.has("stream")) {
    CodecStream stream = decoder.stream(batch, chunk, left);
    std::vector<std::vector<float>> pieces;
    for (std::int64_t first = 0; first < frames; first += push) {
      std::int64_t const n = std::min(push, frames - first);
      std::vector<std::int32_t> part(std::size_t(batch * q * n));
      for (std::int64_t row = 0; row < batch * q; ++row)
        std::copy(codes.begin() + row * frames + first, codes.begin() + row * frames + first + n,
                  part.begin() + row * n);
      pieces.push_back(stream.push(part, n));
    }
    pieces.push_back(stream.finish());
    wav = join(pieces, batch);
  } else if (a.has("chunked")) {
    wav = decoder.decode_chunked(codes, batch, frames, chunk, left);
  } else {
    wav = decoder.decode(codes, batch, frames);
  }
  std::ofstream out(a.get("out"), std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<char const*>(wav.data()), std::streamsize(wav.size() * sizeof(float)));
  if (!out) throw LoadError(kRuleUsage, "cannot write --out " + in_quotes(a.get("out")));
  std::printf("decoded %lld frames x %d sequences: %zu samples\n", static_cast<long long>(frames), batch, wav.size());
  return 0;
}

int run_bench(const CliArgs& a) {
  int const batch = int(a.number("batch", 1));
  std::int64_t const frames = a.number("frames", kDefaultChunkFrames + kDefaultLeftContext);
  int const iters = int(a.number("iters", 20));
  if (batch < 1 || frames < 1 || iters < 1)
    throw LoadError(kRuleUsage, "--batch, --frames and --iters must be at least 1\n" + std::string(kUsage));
  auto const seed = random_weights_seed(a);
  auto decoder = seed ? CodecDecoder::random(a.get("model"), *seed) : CodecDecoder::load(a.get("model"));
  auto const& c = decoder.config();
  std::vector<std::int32_t> codes(std::size_t(batch * c.num_quantizers * frames));
  for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = std::int32_t((i * 2654435761u) % std::size_t(c.codebook_size));
  (void)decoder.decode(codes, batch, frames);  // warm-up: buffers, workspaces, first launches
  std::vector<float> ms;
  for (int i = 0; i < iters; ++i) {
    (void)decoder.decode(codes, batch, frames);
    ms.push_back(decoder.last_decode_ms());
  }
  std::sort(ms.begin(), ms.end());
  double const median = ms[ms.size() / 2];
  double const audio_s = double(frames * c.total_upsample()) / double(c.output_sample_rate);
  std::printf("tts-codec decode: batch %d, %lld frames (%.2f s of audio each): median %.3f ms, %.1fx real time\n",
              batch, static_cast<long long>(frames), audio_s, median, batch * audio_s * 1000.0 / median);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  static constexpr CliCommand commands[] = {{"decode", run_decode}, {"bench", run_bench, true}};
  auto const parse = [](int n, char** v) {
    static const char* const flags[] = {"chunked"};
    return parse_cli(n, v, flags, kRuleUsage, kUsage);
  };
  return run_cli(argc, argv, parse, commands);
}
