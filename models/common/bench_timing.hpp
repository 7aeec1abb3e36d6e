// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/bench_timing.hpp: what the decoder programs' bench commands time with: CUDA events
// around a piece of host code on a stream, and the median of the runs.
#include <cute_cpp/host/error.hpp>  // cuda_check

#include <cuda_runtime_api.h>

#include <algorithm>  // std::sort
#include <vector>     // std::vector

namespace cute_cpp::models {

/// Milliseconds of `f()` on `stream` (CUDA events; f may synchronize).
template <class F>
double time_ms(cudaStream_t stream, F&& f) {
  cudaEvent_t start = nullptr, stop = nullptr;
  host::cuda_check(cudaEventCreate(&start), "cudaEventCreate");
  host::cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  host::cuda_check(cudaEventRecord(start, stream), "cudaEventRecord");
  f();
  host::cuda_check(cudaEventRecord(stop, stream), "cudaEventRecord");
  host::cuda_check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  host::cuda_check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  (void)cudaEventDestroy(start);
  (void)cudaEventDestroy(stop);
  return double(ms);
}

/// The median (the upper one of an even count). @pre v is not empty.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace cute_cpp::models
