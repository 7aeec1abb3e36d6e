// SPDX-License-Identifier: Apache-2.0
// models/common/nccl on the GPUs present: one communicator per visible device (one on a one-GPU
// machine) from one host thread, each rank's call inside one NCCL group. The sum all-reduce (out of
// place and in place) and the all-gather of bf16 and f32 buffers of ragged sizes, eagerly and from
// CUDA graphs captured on every rank's stream and replayed twice on new inputs. Outputs are
// NaN-poisoned first and every element is compared exactly with the host's: the inputs are small
// integers (f32: quarters), so every partial sum is exact in either type whatever NCCL's order. A
// guard after each output must stay as written. Without libnccl the test fails with the loader's
// message (scripts/gpu-check points CUTE_CPP_NCCL at torch's copy).
#include <cuda_runtime_api.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <cute_cpp/host/error.hpp>  // cuda_check

#include "gpu/has_device.hpp"
#include "models/common/nccl.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::host::cuda_check;

namespace {

// NOTE: sizes that are multiples of nothing NCCL's chunking likes (primes and one past powers of 2).
constexpr std::size_t kSizes[] = {1, 3, 257, 4099, 65539, 1000003};
constexpr std::size_t kGuardBytes = 256;  // after each output; no collective may write there
constexpr unsigned char kGuard = 0x5A;

/// Rank r's input element i at step `salt`: an integer in [-8, 8] (f32: plus a multiple of 1/4).
float input_value(int rank, std::size_t i, int salt, bool quarters) {
  std::uint32_t h = std::uint32_t(i) * 2654435761u ^ std::uint32_t(rank * 40503 + salt * 977);
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  float const whole = float(int(h % 17) - 8);
  return quarters ? whole + float((h >> 8) % 4) / 4.0f : whole;
}

std::size_t element_bytes(cm::Dtype d) { return d == cm::Dtype::BF16 ? 2 : 4; }

/// `values` in `dtype`'s bytes: bf16 keeps a float's upper half (exact for these values).
std::vector<unsigned char> encode(const std::vector<float>& values, cm::Dtype dtype) {
  std::vector<unsigned char> out(values.size() * element_bytes(dtype));
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &values[i], 4);
    if (dtype == cm::Dtype::BF16) {
      auto const half = std::uint16_t(bits >> 16);
      std::memcpy(&out[i * 2], &half, 2);
    } else {
      std::memcpy(&out[i * 4], &bits, 4);
    }
  }
  return out;
}

float decode(const unsigned char* p, cm::Dtype dtype) {
  std::uint32_t bits = 0;
  if (dtype == cm::Dtype::BF16) {
    std::uint16_t half = 0;
    std::memcpy(&half, p, 2);
    bits = std::uint32_t(half) << 16;
  } else {
    std::memcpy(&bits, p, 4);
  }
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}

struct DeviceBytes {
  void* p = nullptr;
  explicit DeviceBytes(std::size_t bytes) { cuda_check(cudaMalloc(&p, bytes), "cudaMalloc"); }
  ~DeviceBytes() { cudaFree(p); }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
};

/// One rank's device, stream and buffers for one (dtype, count).
struct Rank {
  int device;
  cudaStream_t stream = nullptr;
  DeviceBytes input, reduced, gathered;
  // The device is made current before the buffers are allocated (cudaMalloc allocates there).
  Rank(int dev, std::size_t in_bytes, std::size_t gathered_bytes)
      : device((cuda_check(cudaSetDevice(dev), "cudaSetDevice"), dev)), input(in_bytes),
        reduced(in_bytes + kGuardBytes), gathered(gathered_bytes + kGuardBytes) {
    cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  }
  ~Rank() { cudaStreamDestroy(stream); }
};

/// The buffers of every rank for `count` elements of `dtype`, and the checks of their outputs.
class Collectives {
 public:
  Collectives(const cm::Communicators& comms, cm::Dtype dtype, std::size_t count)
      : comms_(comms), dtype_(dtype), count_(count), bytes_(count * element_bytes(dtype)) {
    for (int r = 0; r < comms.ranks(); ++r)
      ranks_.push_back(std::make_unique<Rank>(comms.device(r), bytes_, bytes_ * std::size_t(comms.ranks())));
  }

  /// Each rank's input for `salt`, its outputs poisoned (NaN) and their guards written, on its stream.
  void prepare(int salt) {
    hosts_.clear();
    for (int r = 0; r < comms_.ranks(); ++r) {
      std::vector<float> v(count_);
      for (std::size_t i = 0; i < count_; ++i) v[i] = input_value(r, i, salt, dtype_ == cm::Dtype::F32);
      hosts_.push_back(v);
      Rank& k = *ranks_[std::size_t(r)];
      cuda_check(cudaSetDevice(k.device), "cudaSetDevice");
      staged_.push_back(encode(v, dtype_));  // kept until synchronize(): the copies read it
      cuda_check(cudaMemcpyAsync(k.input.p, staged_.back().data(), bytes_, cudaMemcpyHostToDevice, k.stream),
                 "cudaMemcpyAsync(input)");
      poison(k.reduced.p, bytes_, k.stream);
      poison(k.gathered.p, bytes_ * std::size_t(comms_.ranks()), k.stream);
    }
  }

  /// Every rank's all-reduce (out of place) and all-gather, one NCCL group each.
  void enqueue() const {
    cm::NcclGroup reduce = comms_.group();
    for (int r = 0; r < comms_.ranks(); ++r) {
      Rank const& k = *ranks_[std::size_t(r)];
      comms_.all_reduce_sum(r, k.input.p, k.reduced.p, count_, dtype_, k.stream);
    }
    reduce.end();
    cm::NcclGroup gather = comms_.group();
    for (int r = 0; r < comms_.ranks(); ++r) {
      Rank const& k = *ranks_[std::size_t(r)];
      comms_.all_gather(r, k.input.p, k.gathered.p, count_, dtype_, k.stream);
    }
    gather.end();
  }

  /// The all-reduce in place, on the inputs.
  void enqueue_in_place() const {
    cm::NcclGroup group = comms_.group();
    for (int r = 0; r < comms_.ranks(); ++r) {
      Rank const& k = *ranks_[std::size_t(r)];
      comms_.all_reduce_sum(r, k.input.p, k.input.p, count_, dtype_, k.stream);
    }
    group.end();
  }

  void synchronize() {
    for (auto const& k : ranks_) {
      cuda_check(cudaSetDevice(k->device), "cudaSetDevice");
      cuda_check(cudaStreamSynchronize(k->stream), "cudaStreamSynchronize");
    }
    staged_.clear();
  }

  /// Mismatches of every rank's outputs against the host's sums and gather (the first ones described
  /// in `report`); `in_place`: the sums are read from the inputs, and the gather is not checked.
  std::size_t check(std::string& report, bool in_place = false) const {
    std::size_t bad = 0;
    std::vector<float> sum(count_, 0.0f);
    for (auto const& h : hosts_)
      for (std::size_t i = 0; i < count_; ++i) sum[i] += h[i];
    std::size_t const eb = element_bytes(dtype_), n = std::size_t(comms_.ranks());
    for (int r = 0; r < comms_.ranks(); ++r) {
      Rank const& k = *ranks_[std::size_t(r)];
      auto const reduced = read(k, in_place ? k.input.p : k.reduced.p, bytes_ + (in_place ? 0 : kGuardBytes));
      for (std::size_t i = 0; i < count_; ++i)
        bad += mismatch(report, r, "all-reduce", i, decode(&reduced[i * eb], dtype_), sum[i]);
      if (in_place) continue;
      bad += guard_broken(report, r, "all-reduce", reduced, bytes_);
      auto const gathered = read(k, k.gathered.p, bytes_ * n + kGuardBytes);
      for (std::size_t q = 0; q < n; ++q)
        for (std::size_t i = 0; i < count_; ++i)
          bad += mismatch(report, r, "all-gather", q * count_ + i, decode(&gathered[(q * count_ + i) * eb], dtype_),
                          hosts_[q][i]);
      bad += guard_broken(report, r, "all-gather", gathered, bytes_ * n);
    }
    return bad;
  }

  [[nodiscard]] cudaStream_t stream(int r) const { return ranks_[std::size_t(r)]->stream; }
  [[nodiscard]] int device(int r) const { return ranks_[std::size_t(r)]->device; }

 private:
  static void poison(void* p, std::size_t bytes, cudaStream_t s) {
    cuda_check(cudaMemsetAsync(p, 0xFF, bytes, s), "cudaMemsetAsync(poison)");  // NaN in bf16 and f32
    cuda_check(cudaMemsetAsync(static_cast<unsigned char*>(p) + bytes, kGuard, kGuardBytes, s),
               "cudaMemsetAsync(guard)");
  }

  static std::vector<unsigned char> read(const Rank& k, const void* p, std::size_t bytes) {
    std::vector<unsigned char> out(bytes);
    cuda_check(cudaSetDevice(k.device), "cudaSetDevice");
    cuda_check(cudaMemcpy(out.data(), p, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy(output)");
    return out;
  }

  static std::size_t mismatch(std::string& report, int rank, const char* what, std::size_t i, float got,
                              float want) {
    if (got == want) return 0;
    if (report.size() < 2000)
      report += std::string(what) + " rank " + std::to_string(rank) + " element " + std::to_string(i) + ": " +
                std::to_string(got) + ", expected " + std::to_string(want) + "\n";
    return 1;
  }

  static std::size_t guard_broken(std::string& report, int rank, const char* what,
                                  const std::vector<unsigned char>& bytes, std::size_t from) {
    for (std::size_t b = from; b < from + kGuardBytes; ++b)
      if (bytes[b] != kGuard) {
        report += std::string(what) + " rank " + std::to_string(rank) + " wrote past its output\n";
        return 1;
      }
    return 0;
  }

  const cm::Communicators& comms_;
  cm::Dtype dtype_;
  std::size_t count_, bytes_;
  std::vector<std::unique_ptr<Rank>> ranks_;
  std::vector<std::vector<float>> hosts_;
  std::vector<std::vector<unsigned char>> staged_;
};

/// One graph per rank, captured on its stream while every rank's calls are made in their groups.
struct RankGraphs {
  std::vector<cudaGraph_t> graphs;
  std::vector<cudaGraphExec_t> execs;
  explicit RankGraphs(const Collectives& c, int ranks) : graphs(std::size_t(ranks)), execs(std::size_t(ranks)) {
    // NOTE: relaxed mode: NCCL allocates and queries inside its calls while every rank's stream captures.
    for (int r = 0; r < ranks; ++r) {
      cuda_check(cudaSetDevice(c.device(r)), "cudaSetDevice");
      cuda_check(cudaStreamBeginCapture(c.stream(r), cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture");
    }
    c.enqueue();
    for (int r = 0; r < ranks; ++r) {
      std::size_t const i = std::size_t(r);
      cuda_check(cudaSetDevice(c.device(r)), "cudaSetDevice");
      cuda_check(cudaStreamEndCapture(c.stream(r), &graphs[i]), "cudaStreamEndCapture");
      cuda_check(cudaGraphInstantiate(&execs[i], graphs[i], 0), "cudaGraphInstantiate");
    }
  }
  void launch(const Collectives& c) const {
    for (std::size_t i = 0; i < execs.size(); ++i) {
      cuda_check(cudaSetDevice(c.device(int(i))), "cudaSetDevice");
      cuda_check(cudaGraphLaunch(execs[i], c.stream(int(i))), "cudaGraphLaunch");
    }
  }
  ~RankGraphs() {
    for (std::size_t i = 0; i < execs.size(); ++i) {
      if (execs[i] != nullptr) cudaGraphExecDestroy(execs[i]);
      if (graphs[i] != nullptr) cudaGraphDestroy(graphs[i]);
    }
  }
};

/// Communicators over every visible device.
std::unique_ptr<cm::Communicators> every_device(const cm::NcclLibrary& nccl) {
  int n = 0;
  cuda_check(cudaGetDeviceCount(&n), "cudaGetDeviceCount");
  std::vector<int> devices;
  for (int d = 0; d < n; ++d) devices.push_back(d);
  std::printf("NCCL %d from %s over %d device(s)\n", nccl.version(), nccl.path().c_str(), n);
  return std::make_unique<cm::Communicators>(nccl, devices);
}

}  // namespace

TEST(GpuNccl, AllReduceAndAllGatherEagerlyAndFromGraphs) {
  // NOTE: NCCL's kernels and proxy thread are NCCL's; the sanitizer parts check cute-cpp's kernels.
  if (cute_cpp::test::under_sanitizer()) GTEST_SKIP() << "NCCL is not run under compute-sanitizer";
  // NCCL first: a machine without it fails here, GPU or not (the lent machine must run this check).
  std::optional<cm::NcclLibrary> nccl;
  try {
    nccl = cm::NcclLibrary::load();
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  auto const comms = every_device(*nccl);
  for (cm::Dtype dtype : {cm::Dtype::BF16, cm::Dtype::F32}) {
    for (std::size_t count : kSizes) {
      SCOPED_TRACE(std::string(cm::dtype_name(dtype)) + " x " + std::to_string(count));
      Collectives c(*comms, dtype, count);
      std::string report;
      c.prepare(0);
      c.enqueue();
      c.synchronize();
      EXPECT_EQ(c.check(report), 0u) << "eager:\n" << report;
      c.prepare(1);
      c.enqueue_in_place();
      c.synchronize();
      EXPECT_EQ(c.check(report, true), 0u) << "eager, in place:\n" << report;
      RankGraphs const graphs(c, comms->ranks());
      for (int replay = 0; replay < 2; ++replay) {
        c.prepare(2 + replay);
        graphs.launch(c);
        c.synchronize();
        EXPECT_EQ(c.check(report), 0u) << "graph replay " << replay << ":\n" << report;
      }
    }
  }
}
