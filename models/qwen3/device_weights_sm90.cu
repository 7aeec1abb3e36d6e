// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3/device_weights_sm90.cu: the weights' way to the device (device_weights.hpp).
#include "models/qwen3/device_weights.hpp"

#include "models/qwen3/random_weights.cuh"

#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cute_cpp::models {

namespace {

using host::cuda_check;

/// memcpy over several threads: one thread copying out of a mapped file (page faults, the page
/// cache) moves about 3 GB/s, a fraction of what the host link takes from pinned memory.
void parallel_copy(std::byte* dst, const std::byte* src, std::size_t n) {
  constexpr std::size_t min_per_thread = std::size_t(4) << 20;
  std::size_t const threads =
      std::clamp<std::size_t>(n / min_per_thread, 1, std::max(1u, std::min(8u, std::thread::hardware_concurrency())));
  if (threads == 1) {
    std::memcpy(dst, src, n);
    return;
  }
  std::size_t const slice = (n + threads - 1) / threads;
  std::vector<std::jthread> workers;
  for (std::size_t t = 1; t < threads; ++t) {
    std::size_t const begin = std::min(n, t * slice), end = std::min(n, begin + slice);
    workers.emplace_back([=] { std::memcpy(dst + begin, src + begin, end - begin); });
  }
  std::memcpy(dst, src, std::min(n, slice));
}

/// Host-to-device copies of the weights through two pinned staging buffers: while the DMA engine
/// moves one chunk, the CPU threads read the next from the mapped file into the other (page faults
/// and the disk overlap the transfer), and pinned memory moves at the link's rate where a pageable
/// cudaMemcpy stages through a driver buffer in small pieces. Packed weights (fused QKV, the
/// interleaved gate-up) go straight to their places on the device, a 2-D copy per chunk.
class Uploader {
 public:
  static constexpr std::size_t chunk = std::size_t(64) << 20;
  Uploader() {
    cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate(upload)");
    for (int b = 0; b < 2; ++b) {
      cuda_check(cudaMallocHost(&pinned_[b], chunk), "cudaMallocHost(staging)");
      cuda_check(cudaEventCreateWithFlags(&free_[b], cudaEventDisableTiming), "cudaEventCreate(staging)");
    }
  }
  Uploader(Uploader const&) = delete;
  Uploader& operator=(Uploader const&) = delete;
  ~Uploader() {
    (void)cudaStreamSynchronize(stream_);
    for (int b = 0; b < 2; ++b) {
      (void)cudaFreeHost(pinned_[b]);
      (void)cudaEventDestroy(free_[b]);
    }
    (void)cudaStreamDestroy(stream_);
  }
  /// A new device buffer of `bytes` laid out by `pieces`; the copies may still be in flight (finish() waits).
  DeviceBuffer<bf16> upload(std::size_t bytes, std::span<const PackPiece> pieces) {
    DeviceBuffer<bf16> d(bytes / sizeof(bf16));
    for (PackPiece const& p : pieces) copy(reinterpret_cast<std::byte*>(d.data()), p);
    return d;
  }
  DeviceBuffer<bf16> upload(const TensorInfo& t) {
    PackPiece const whole[] = {{std::span<const std::byte>(t.data, t.bytes()), 0, t.bytes(), t.bytes()}};
    return upload(t.bytes(), whole);
  }
  void finish() { cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize(upload)"); }

 private:
  /// One piece, a staging chunk at a time: whole blocks per chunk (a block larger than a chunk is
  /// copied as contiguous pieces of its own).
  void copy(std::byte* dst, PackPiece const& p) {
    if (p.block != p.dst_pitch && p.block > chunk) {
      for (std::uint64_t b = 0; b * p.block < p.src.size(); ++b) {
        std::uint64_t const n = std::min<std::uint64_t>(p.block, p.src.size() - b * p.block);
        copy(dst, PackPiece{p.src.subspan(b * p.block, n), p.dst_offset + b * p.dst_pitch, n, n});
      }
      return;
    }
    bool const contiguous = p.block == p.dst_pitch;
    std::size_t const step = contiguous ? chunk : chunk / p.block * p.block;
    for (std::size_t off = 0; off < p.src.size(); off += step) {
      std::size_t const n = std::min(step, p.src.size() - off);
      int const b = next_;
      next_ = 1 - next_;
      cuda_check(cudaEventSynchronize(free_[b]), "cudaEventSynchronize(staging)");  // its last copy is done
      parallel_copy(static_cast<std::byte*>(pinned_[b]), p.src.data() + off, n);
      if (contiguous) {
        cuda_check(cudaMemcpyAsync(dst + p.dst_offset + off, pinned_[b], n, cudaMemcpyHostToDevice, stream_),
                   "cudaMemcpyAsync(weights)");
      } else {
        if (n % p.block != 0) throw std::logic_error("cute-cpp: a packed piece is not whole blocks");
        cuda_check(cudaMemcpy2DAsync(dst + p.dst_offset + off / p.block * p.dst_pitch, p.dst_pitch, pinned_[b],
                                     p.block, p.block, n / p.block, cudaMemcpyHostToDevice, stream_),
                   "cudaMemcpy2DAsync(packed weights)");
      }
      cuda_check(cudaEventRecord(free_[b], stream_), "cudaEventRecord(staging)");
    }
  }

  cudaStream_t stream_ = nullptr;
  void* pinned_[2] = {nullptr, nullptr};
  cudaEvent_t free_[2] = {nullptr, nullptr};
  int next_ = 0;
};


}  // namespace

/// The checkpoint in `folder`, checked against the manifest (before any GPU work) and copied to the
/// device, q/k/v and gate/up packed on the way.
Weights checkpoint_weights(const std::filesystem::path& folder, const Qwen3WeightManifest& manifest) {
  Checkpoint const checkpoint = Checkpoint::open(folder);
  manifest.validate(checkpoint);
  Uploader uploader;
  Weights w;
  w.embed = uploader.upload(checkpoint.at("model.embed_tokens.weight"));
  w.final_norm = uploader.upload(checkpoint.at("model.norm.weight"));
  if (TensorInfo const& out = manifest.output_weight(checkpoint); out.name != "model.embed_tokens.weight")
    w.lm_head = uploader.upload(out);
  for (Qwen3LayerTensors const& names : manifest.layers()) {
    LayerWeights l;
    l.input_norm = uploader.upload(checkpoint.at(names.input_layernorm));
    l.qkv = uploader.upload(manifest.qkv_bytes(), qkv_pieces(checkpoint.at(names.q_proj), checkpoint.at(names.k_proj),
                                                              checkpoint.at(names.v_proj)));
    l.q_norm = uploader.upload(checkpoint.at(names.q_norm));
    l.k_norm = uploader.upload(checkpoint.at(names.k_norm));
    l.o = uploader.upload(checkpoint.at(names.o_proj));
    l.post_norm = uploader.upload(checkpoint.at(names.post_attention_layernorm));
    if (!names.experts.empty()) {
      l.router = uploader.upload(checkpoint.at(names.router));
      l.experts_gate_up = uploader.upload(manifest.experts_gate_up_bytes(), experts_gate_up_pieces(checkpoint, names));
      l.experts_down = uploader.upload(manifest.experts_down_bytes(), experts_down_pieces(checkpoint, names));
    } else {
      l.gate_up = uploader.upload(manifest.gate_up_bytes(),
                                  gate_up_pieces(checkpoint.at(names.gate_proj), checkpoint.at(names.up_proj)));
      l.down = uploader.upload(checkpoint.at(names.down_proj));
    }
    w.layers.push_back(std::move(l));
  }
  uploader.finish();
  return w;
}

/// Weights of the manifest's shapes, in checkpoint_weights' layouts, filled on the device from
/// `seed` (random_weights.cuh): each buffer is one tensor of the hash, numbered in the order below.
/// Matrices have mean 0 and standard deviation 0.02 (transformers' initializer_range for Qwen3),
/// RMSNorm weights 1 + the same noise; tied embeddings serve as the LM head, as a checkpoint's do.
Weights random_weights(const Qwen3WeightManifest& manifest, std::uint64_t seed) {
  constexpr float stddev = 0.02f;
  std::uint64_t tensor = 0;
  auto const fill = [&](std::span<const std::int64_t> shape, float mean) {
    std::uint64_t n = 1;
    for (std::int64_t const e : shape) n *= std::uint64_t(e);
    DeviceBuffer<bf16> d(n);
    fill_random_bf16(d.data(), n, seed, tensor++, mean, stddev, nullptr);
    return d;
  };
  auto const matrix = [&](std::span<const std::int64_t> shape) { return fill(shape, 0.0f); };
  auto const norm = [&](std::string const& name) { return fill(manifest.find(name)->shape, 1.0f); };
  auto const shape_of = [&](std::string const& name) {
    return std::span<const std::int64_t>(manifest.find(name)->shape);
  };
  Qwen3Config const& c = manifest.config();
  Weights w;
  w.embed = matrix(shape_of("model.embed_tokens.weight"));
  w.final_norm = norm("model.norm.weight");
  if (!c.tie_word_embeddings) w.lm_head = matrix(shape_of("lm_head.weight"));
  for (Qwen3LayerTensors const& names : manifest.layers()) {
    LayerWeights l;
    l.input_norm = norm(names.input_layernorm);
    l.qkv = matrix(manifest.qkv_shape());
    l.q_norm = norm(names.q_norm);
    l.k_norm = norm(names.k_norm);
    l.o = matrix(shape_of(names.o_proj));
    l.post_norm = norm(names.post_attention_layernorm);
    if (!names.experts.empty()) {
      l.router = matrix(shape_of(names.router));
      l.experts_gate_up = matrix(manifest.experts_gate_up_shape());
      l.experts_down = matrix(manifest.experts_down_shape());
    } else {
      l.gate_up = matrix(manifest.gate_up_shape());
      l.down = matrix(shape_of(names.down_proj));
    }
    w.layers.push_back(std::move(l));
  }
  // NOTE: the fills run on the legacy default stream, which the model's non-blocking stream does
  // not wait for.
  cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize(random weights)");
  return w;
}


}  // namespace cute_cpp::models
