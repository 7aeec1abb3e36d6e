// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// launch<Kernel>(config, args...): checks the device against the binary's targets before the
// kernel's first launch, sets the dynamic shared-memory limit, applies cluster dimensions and
// programmatic dependent launch, launches, and turns any failure into an exception.
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/target_check.hpp>

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <string_view>

namespace cute_cpp::host {

/// How to launch: grid and block, dynamic shared memory, stream, cluster shape, PDL.
struct LaunchConfig {
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  std::size_t smem_bytes = 0;
  cudaStream_t stream = nullptr;
  dim3 cluster{1, 1, 1};
  bool programmatic_dependent_launch = false;
};

/// Launches `Kernel` with `args`; `name` appears in errors.
template <auto Kernel, class... Args>
void launch(std::string_view name, LaunchConfig const& config, Args&&... args) {
  // NOTE: checked once per kernel and process; a program that switches devices between
  // launches of one kernel must call check_kernel_target itself.
  static std::atomic<bool> checked{false};
  if (!checked.load(std::memory_order_acquire)) {
    check_kernel_target(reinterpret_cast<void const*>(Kernel), name);
    if (config.smem_bytes > 48 * 1024) {
      cuda_check(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(config.smem_bytes)),
                 "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
    }
    checked.store(true, std::memory_order_release);
  }
  cudaLaunchAttribute attributes[2]{};
  unsigned count = 0;
  if (config.cluster.x * config.cluster.y * config.cluster.z > 1) {
    attributes[count].id = cudaLaunchAttributeClusterDimension;
    attributes[count].val.clusterDim = {config.cluster.x, config.cluster.y, config.cluster.z};
    ++count;
  }
  if (config.programmatic_dependent_launch) {
    attributes[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[count].val.programmaticStreamSerializationAllowed = 1;
    ++count;
  }
  cudaLaunchConfig_t launch_config{};
  launch_config.gridDim = config.grid;
  launch_config.blockDim = config.block;
  launch_config.dynamicSmemBytes = config.smem_bytes;
  launch_config.stream = config.stream;
  launch_config.attrs = attributes;
  launch_config.numAttrs = count;
  cuda_check(cudaLaunchKernelEx(&launch_config, Kernel, std::forward<Args>(args)...),
             std::string("cudaLaunchKernelEx(") + std::string(name) + ")");
}

}  // namespace cute_cpp::host
