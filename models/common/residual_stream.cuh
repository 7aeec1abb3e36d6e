// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/residual_stream.cuh: the residual stream of the pre-norm decoders (Qwen3, Nemotron-H,
// the Qwen3-TTS talker and code predictor).
#include <cute_cpp/host/buffer.hpp>           // DeviceBuffer
#include <cute_cpp/host/error.hpp>            // cuda_check
#include <cute_cpp/kernels/gemm/simt_gemv_norm.cuh>  // RmsNormedRows
#include <cute_cpp/kernels/rows/instances.hpp>  // rmsnorm

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cute_cpp::models {

/// x += delta and normed = rmsnorm(x) * weight in one kernel, x alternating between two buffers (the
/// kernel's input and output must not alias); the first add_norm of a pass (after begin) takes delta
/// (the embedding, or the pass's input rows) as x.
struct ResidualStream {
  host::DeviceBuffer<__nv_bfloat16> buffer[2];
  int current = 0;
  bool first = true;

  void begin() { current = 0, first = true; }

  void add_norm(__nv_bfloat16 const* delta, __nv_bfloat16 const* weight, __nv_bfloat16* normed, std::int64_t tokens,
                std::int64_t hidden, float eps, cudaStream_t stream) {
    namespace kn = cute_cpp::kernels;
    __nv_bfloat16* const out = buffer[1 - current].data();
    if (first) {
      kn::rmsnorm<__nv_bfloat16>(delta, nullptr, weight, normed, nullptr, std::size_t(tokens), std::size_t(hidden), eps,
                                 stream);
      host::cuda_check(cudaMemcpyAsync(out, delta, std::size_t(tokens * hidden) * sizeof(__nv_bfloat16),
                                       cudaMemcpyDeviceToDevice, stream),
                       "cudaMemcpyAsync(residual)");
      first = false;
    } else {
      kn::rmsnorm<__nv_bfloat16>(delta, buffer[current].data(), weight, normed, out, std::size_t(tokens),
                                 std::size_t(hidden), eps, stream);
    }
    current = 1 - current;
  }

  /// The stream as begin() and then `norms` add_norm steps leave it, where a kernel took the steps
  /// itself (models/qwen3/fused_step.cuh).
  void after(int norms) {
    first = norms < 1;
    current = norms % 2;
  }

  /// add_norm's step for a kernel that norms the rows itself (kernels/gemm/simt_gemv_norm.cuh):
  /// delta, the stream's current value (none on the first step) and its next buffer, as that kernel
  /// takes them; the stream moves on as add_norm's would.
  kernels::RmsNormedRows<__nv_bfloat16> normed_rows(__nv_bfloat16 const* delta, __nv_bfloat16 const* weight,
                                                    float eps) {
    kernels::RmsNormedRows<__nv_bfloat16> const rows{delta, first ? nullptr : buffer[current].data(), weight,
                                                     buffer[1 - current].data(), eps};
    first = false;
    current = 1 - current;
    return rows;
  }
};

}  // namespace cute_cpp::models
