// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Benchmark inputs in seconds rather than minutes: a block of fresh random values (never zeros)
// generated on the host, uploaded once, then repeated across the buffer by device copies.
#include "tests/support/check.hpp"  // random_values

#include <cute_cpp/host/error.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

namespace cute_cpp::kernels {

/// Fills n elements at dev (device memory) with a random block of at most 2^20 values, repeated.
/// NOTE: generating 2^28 values with mt19937_64 on the host took longer than the benchmark.
template <class T>
void fill_random_tiled(T* dev, std::size_t n, std::mt19937_64& rng, double lo = -2.0, double hi = 2.0) {
  std::size_t const block = std::min<std::size_t>(n, std::size_t(1) << 20);
  if (block == 0) return;
  auto const values = random_values<T>(block, rng, lo, hi);
  host::cuda_check(cudaMemcpy(dev, values.data(), block * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  for (std::size_t done = block; done < n;) {
    std::size_t const count = std::min(done, n - done);
    host::cuda_check(cudaMemcpy(dev + done, dev, count * sizeof(T), cudaMemcpyDeviceToDevice), "cudaMemcpy");
    done += count;
  }
}

}  // namespace cute_cpp::kernels
