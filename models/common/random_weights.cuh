// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/random_weights.cuh: seeded random values written straight into a device buffer, so
// that a benchmark can run a model from its config.json alone (cute-cpp-qwen3 bench
// --random-weights): no host memory or disk holds the weights. Each element is a counter-based
// hash of (seed, tensor, element), so the values do not depend on the launch's shape.
#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>  // std::min
#include <cstdint>

namespace cute_cpp::models {

/// splitmix64 (Steele, Lea and Flood, 2014): the i-th output of the generator started at `state`
/// is splitmix64(state + i * 0x9E3779B97F4A7C15); a bijective mix of 64 bits.
__host__ __device__ constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// out[i] = mean + stddev * z_i in bf16, z_i of mean 0 and variance 1: the sum of the four 16-bit
/// quarters of splitmix64's i-th output from `key`, each a uniform on (0, 1), centred and scaled
/// (Irwin-Hall with 4 terms: bell-shaped, within +-3.46).
/// NOTE: a template (of nothing) for its linkage: several libraries of one program include this
/// header (models/qwen3's and models/qwen3_tts's weights), and a plain kernel defined in each would
/// be a duplicate symbol at link time; template instances merge.
template <int = 0>
__global__ void __launch_bounds__(256) fill_random_bf16_kernel(__nv_bfloat16* __restrict__ out, std::uint64_t n,
                                                               std::uint64_t key, float mean, float stddev) {
  std::uint64_t const stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    std::uint64_t const h = splitmix64(key + i * 0x9E3779B97F4A7C15ull);
    float sum = 0.0f;
#pragma unroll
    for (int q = 0; q < 4; ++q) sum += (float((h >> (16 * q)) & 0xFFFFu) + 0.5f) * (1.0f / 65536.0f);
    out[i] = __float2bfloat16(mean + stddev * (sum - 2.0f) * 1.7320508f);  // variance of the sum: 4 / 12
  }
}

/// Fills `n` bf16 elements at `out` with fill_random_bf16_kernel's values for (seed, tensor): the
/// same seed and tensor index give the same values.
inline void fill_random_bf16(__nv_bfloat16* out, std::uint64_t n, std::uint64_t seed, std::uint64_t tensor,
                             float mean, float stddev, cudaStream_t stream) {
  if (n == 0) return;
  host::LaunchConfig config;
  // NOTE: a grid-stride loop over at most 8192 blocks: 778M elements (Qwen3-32B's embedding) in
  // one launch, and a grid whose size does not change the values.
  config.grid = dim3(unsigned(std::min<std::uint64_t>((n + 255) / 256, 8192)));
  config.block = dim3(256);
  config.stream = stream;
  std::uint64_t const key = splitmix64(seed ^ splitmix64(tensor));
  host::launch(&fill_random_bf16_kernel<>, "fill_random_bf16_kernel", config, out, n, key, mean, stddev);
}

/// The block [row0, row0 + rows) x [col0, col0 + cols) of the tensor [*, full_cols] that
/// fill_random_bf16(.., seed, tensor, ..) fills whole, written compactly to `out` (rows x cols): a
/// tensor-parallel rank's shard of a random tensor, without the tensor (element (i, j) is the whole
/// tensor's element (row0 + i) full_cols + col0 + j, hashed as there).
template <int = 0>
__global__ void __launch_bounds__(256) fill_random_bf16_block_kernel(__nv_bfloat16* __restrict__ out,
                                                                     std::uint64_t rows, std::uint64_t cols,
                                                                     std::uint64_t full_cols, std::uint64_t row0,
                                                                     std::uint64_t col0, std::uint64_t key,
                                                                     float mean, float stddev) {
  std::uint64_t const stride = std::uint64_t(gridDim.x) * blockDim.x, n = rows * cols;
  for (std::uint64_t e = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < n; e += stride) {
    std::uint64_t const i = (row0 + e / cols) * full_cols + col0 + e % cols;
    std::uint64_t const h = splitmix64(key + i * 0x9E3779B97F4A7C15ull);
    float sum = 0.0f;
#pragma unroll
    for (int q = 0; q < 4; ++q) sum += (float((h >> (16 * q)) & 0xFFFFu) + 0.5f) * (1.0f / 65536.0f);
    out[e] = __float2bfloat16(mean + stddev * (sum - 2.0f) * 1.7320508f);  // as fill_random_bf16_kernel
  }
}

/// fill_random_bf16's values for (seed, tensor) of the block of rows [row0, + rows) and columns
/// [col0, + cols) of a tensor of `full_cols` columns, compactly at `out`.
inline void fill_random_bf16_block(__nv_bfloat16* out, std::uint64_t rows, std::uint64_t cols, std::uint64_t full_cols,
                                   std::uint64_t row0, std::uint64_t col0, std::uint64_t seed, std::uint64_t tensor,
                                   float mean, float stddev, cudaStream_t stream) {
  std::uint64_t const n = rows * cols;
  if (n == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned(std::min<std::uint64_t>((n + 255) / 256, 8192)));
  config.block = dim3(256);
  config.stream = stream;
  std::uint64_t const key = splitmix64(seed ^ splitmix64(tensor));
  host::launch(&fill_random_bf16_block_kernel<>, "fill_random_bf16_block_kernel", config, out, rows, cols, full_cols,
               row0, col0, key, mean, stddev);
}

}  // namespace cute_cpp::models
