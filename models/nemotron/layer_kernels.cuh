// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/nemotron/layer_kernels.cuh: the Nemotron-H decoder's own small kernel: the dense MLP's
// squared ReLU (transformers' relu2, ACT2FN["relu2"]), between its up and down GEMMs.
#include <cute_cpp/arch/griddepcontrol.hpp>  // griddepcontrol_* (a decode graph's PDL edges)
#include <cute_cpp/host/launch.hpp>         // launch, LaunchConfig

#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>

namespace cute_cpp::models {

/// x[i] = relu(x[i])^2, f32 math rounded once to bf16 (torch's bf16 ops round each result the same way).
template <int = 0>  // a template for its linkage, as kernels/ headers' are
__global__ void __launch_bounds__(256) relu2_kernel(__nv_bfloat16* __restrict__ x, std::int64_t n) {
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  std::int64_t const stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    float const r = fmaxf(__bfloat162float(x[i]), 0.0f);
    x[i] = __float2bfloat16(r * r);
  }
}

/// relu2_kernel over `n` elements at `x`, on `stream`.
inline void relu2_in_place(__nv_bfloat16* x, std::int64_t n, cudaStream_t stream) {
  if (n == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned(std::min<std::int64_t>((n + 255) / 256, 4096)));
  config.block = dim3(256);
  config.stream = stream;
  host::launch(&relu2_kernel<>, "relu2_kernel", config, x, n);
}

}  // namespace cute_cpp::models
