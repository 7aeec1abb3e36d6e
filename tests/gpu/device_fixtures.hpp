// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the GPU tests set up again and again: a non-blocking stream that lives as long as the test,
// and a device buffer of fresh random bf16 values.
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace cute_cpp::test {

/// A non-blocking stream, destroyed with the object.
struct Stream {
  cudaStream_t s = nullptr;
  Stream() { host::cuda_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~Stream() { (void)cudaStreamDestroy(s); }
  Stream(Stream const&) = delete;
  Stream& operator=(Stream const&) = delete;
};

/// n bf16 values drawn from N(0, 1) with `seed`, on the device.
inline host::DeviceBuffer<__nv_bfloat16> random_bf16(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<__nv_bfloat16> v(n);
  for (auto& x : v) x = __float2bfloat16(normal(rng));
  host::DeviceBuffer<__nv_bfloat16> d(n);
  d.upload(std::span<__nv_bfloat16 const>(v));
  return d;
}

}  // namespace cute_cpp::test
