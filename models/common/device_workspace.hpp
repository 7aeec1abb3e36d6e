// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/device_workspace.hpp: the grow-only device workspace every model program hands its
// GEMMs (split-K and stream-K counters and partials), attention and MoE blocks.
#include <cute_cpp/host/buffer.hpp>  // DeviceBuffer
#include <cute_cpp/host/error.hpp>   // cuda_check

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cute_cpp::models {

/// A device buffer that only grows; zeroed when it does (a GEMM's split-K workspace must start zeroed,
/// and the kernels leave it so), on the caller's stream: a plain cudaMemset runs on the legacy
/// stream, which does not order itself with a non-blocking one. Growing frees the old buffer
/// (cudaFree waits for the device), so recorded graphs that hold its address must be re-recorded:
/// `moves`, when set, counts the reallocations for that.
struct GrowingWorkspace {
  host::DeviceBuffer<std::byte> buffer;
  int* moves = nullptr;
  void* ensure(std::size_t bytes, cudaStream_t stream) {
    if (bytes > buffer.size()) {
      buffer = host::DeviceBuffer<std::byte>(bytes);
      if (moves != nullptr) ++*moves;
      host::cuda_check(cudaMemsetAsync(buffer.data(), 0, bytes, stream), "cudaMemsetAsync(workspace)");
    }
    return bytes == 0 ? nullptr : buffer.data();
  }
};

}  // namespace cute_cpp::models
