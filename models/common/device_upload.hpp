// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/device_upload.hpp: the weights' way from a mapped checkpoint to the device, shared
// by the decoders (models/qwen3, models/nemotron): parallel_copy out of the mapping and Uploader,
// the pinned double-buffered staging that copies each PackPiece (manifest.hpp) to its place.
#include "models/common/manifest.hpp"     // PackPiece
#include "models/common/safetensors.hpp"  // TensorInfo

#include <cute_cpp/host/buffer.hpp>  // DeviceBuffer
#include <cute_cpp/host/error.hpp>   // cuda_check

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cute_cpp::models {

/// memcpy over several threads: one thread copying out of a mapped file (page faults, the page
/// cache) moves about 3 GB/s, a fraction of what the host link takes from pinned memory.
inline void parallel_copy(std::byte* dst, const std::byte* src, std::size_t n) {
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
    host::cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate(upload)");
    for (int b = 0; b < 2; ++b) {
      host::cuda_check(cudaMallocHost(&pinned_[b], chunk), "cudaMallocHost(staging)");
      host::cuda_check(cudaEventCreateWithFlags(&free_[b], cudaEventDisableTiming), "cudaEventCreate(staging)");
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
  template <class T = __nv_bfloat16>
  host::DeviceBuffer<T> upload(std::size_t bytes, std::span<const PackPiece> pieces) {
    host::DeviceBuffer<T> d(bytes / sizeof(T));
    for (PackPiece const& p : pieces) copy(reinterpret_cast<std::byte*>(d.data()), p);
    return d;
  }
  template <class T = __nv_bfloat16>
  host::DeviceBuffer<T> upload(const TensorInfo& t) {
    PackPiece const whole[] = {{std::span<const std::byte>(t.data, t.bytes()), 0, t.bytes(), t.bytes()}};
    return upload<T>(t.bytes(), whole);
  }
  void finish() { host::cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize(upload)"); }

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
      host::cuda_check(cudaEventSynchronize(free_[b]), "cudaEventSynchronize(staging)");  // its last copy is done
      parallel_copy(static_cast<std::byte*>(pinned_[b]), p.src.data() + off, n);
      if (contiguous) {
        host::cuda_check(cudaMemcpyAsync(dst + p.dst_offset + off, pinned_[b], n, cudaMemcpyHostToDevice, stream_),
                   "cudaMemcpyAsync(weights)");
      } else {
        if (n % p.block != 0) throw std::logic_error("cute-cpp: a packed piece is not whole blocks");
        host::cuda_check(cudaMemcpy2DAsync(dst + p.dst_offset + off / p.block * p.dst_pitch, p.dst_pitch, pinned_[b],
                                     p.block, p.block, n / p.block, cudaMemcpyHostToDevice, stream_),
                   "cudaMemcpy2DAsync(packed weights)");
      }
      host::cuda_check(cudaEventRecord(free_[b], stream_), "cudaEventRecord(staging)");
    }
  }

  cudaStream_t stream_ = nullptr;
  void* pinned_[2] = {nullptr, nullptr};
  cudaEvent_t free_[2] = {nullptr, nullptr};
  int next_ = 0;
};


}  // namespace cute_cpp::models
