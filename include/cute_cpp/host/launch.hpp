// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// launch(kernel, name, config, args...): checks the device against the binary's targets before the
// kernel's first launch, sets the dynamic shared-memory limit, applies cluster dimensions,
// programmatic dependent launch and cooperative launch, launches, and turns any failure into an
// exception.
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/target_check.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

namespace cute_cpp::host {

/// How to launch: grid and block, dynamic shared memory, stream, cluster shape, PDL.
struct LaunchConfig {
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  std::size_t smem_bytes = 0;
  cudaStream_t stream = nullptr;
  dim3 cluster{1, 1, 1};
  bool programmatic_dependent_launch = false;
  /// Launched cooperatively: the launch fails unless the whole grid fits the GPU at once (a grid
  /// whose CTAs wait for each other, sched/grid_barrier.hpp).
  bool cooperative = false;
};

namespace detail {
/// Per key, the largest value an action has been done for: at_least(key, value, action) runs action()
/// unless the key's value is already `value` or more, and records `value` once action() has returned
/// (an action that throws records nothing, so the next call tries again). Returns whether it ran.
/// NOTE: the action runs under the lock, so a caller that returns knows that it has happened,
/// whichever thread ran it. Recorded before the action (as launch once did), a thread launching a
/// kernel for the first time beside another could ask the occupancy calculator before the other's
/// cudaFuncSetAttribute: no CTA fit, and a persistent grid threw gemm.occupancy (the tensor-parallel
/// emulation's rank threads, issue 49). A key's action runs about once, so the launches after pay
/// nothing for the lock held through it (a CUDA call; the first time, a module load).
template <class Key>
class DoneUpTo {
 public:
  template <class Action>
  bool at_least(Key const& key, std::size_t value, Action&& action) {
    std::lock_guard lock(mutex_);
    if (auto const it = done_.find(key); it != done_.end() && value <= it->second) return false;
    std::forward<Action>(action)();
    done_[key] = value;
    return true;
  }

 private:
  std::mutex mutex_;
  std::map<Key, std::size_t> done_;
};
/// The current device.
inline int current_device() {
  int device = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}
/// The dynamic shared-memory limit each kernel has been allowed, per device.
inline DoneUpTo<std::pair<void const*, int>>& dynamic_smem_limits() {
  static DoneUpTo<std::pair<void const*, int>> limits;
  return limits;
}
/// The kernels whose target was checked (value 1).
inline DoneUpTo<void const*>& checked_targets() {
  static DoneUpTo<void const*> checked;
  return checked;
}
/// Lets `kernel` take `bytes` of dynamic shared memory. NOTE: the limit is raised once per kernel
/// and device (to the largest size asked), also below 48 KB, where the kernel's static shared
/// memory beside the dynamic may pass the default limit.
template <class... Params>
void allow_dynamic_smem(void (*kernel)(Params...), std::size_t bytes) {
  if (bytes == 0) return;
  dynamic_smem_limits().at_least({reinterpret_cast<void const*>(kernel), current_device()}, bytes, [&] {
    cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
               "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  });
}
}  // namespace detail

/// How many clusters of config.cluster can be resident at once for `kernel` with
/// config.smem_bytes of shared memory: the size of a persistent grid, in clusters.
template <class... Params>
int max_active_clusters(void (*kernel)(Params...), LaunchConfig const& config) {
  detail::allow_dynamic_smem(kernel, config.smem_bytes);
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim = {config.cluster.x, config.cluster.y, config.cluster.z};
  cudaLaunchConfig_t launch_config{};
  launch_config.gridDim = config.grid;
  launch_config.blockDim = config.block;
  launch_config.dynamicSmemBytes = config.smem_bytes;
  launch_config.attrs = &attribute;
  launch_config.numAttrs = 1;
  int clusters = 0;
  cuda_check(cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch_config), "cudaOccupancyMaxActiveClusters");
  return clusters;
}

/// max_active_clusters, asked of the runtime once per kernel, shared-memory size, cluster shape and
/// device: the size of a persistent grid, on every launch of it.
template <class... Params>
int resident_clusters(void (*kernel)(Params...), LaunchConfig const& config) {
  using Key = std::tuple<void const*, std::size_t, unsigned, unsigned, unsigned, int>;
  static std::mutex mutex;
  static std::map<Key, int> known;
  Key const key{reinterpret_cast<void const*>(kernel), config.smem_bytes, config.cluster.x, config.cluster.y,
                config.cluster.z, detail::current_device()};
  {
    std::lock_guard lock(mutex);
    if (auto const it = known.find(key); it != known.end()) return it->second;
  }
  int const clusters = max_active_clusters(kernel, config);
  std::lock_guard lock(mutex);
  known.emplace(key, clusters);
  return clusters;
}

/// Launches `kernel` with `args`; `name` appears in errors.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), std::string_view name, LaunchConfig const& config, Args&&... args) {
  // NOTE: the target is checked once per kernel and process; a program that switches devices
  // between launches of one kernel must call check_kernel_target itself.
  detail::checked_targets().at_least(reinterpret_cast<void const*>(kernel), 1,
                                     [&] { check_kernel_target(reinterpret_cast<void const*>(kernel), name); });
  detail::allow_dynamic_smem(kernel, config.smem_bytes);
  cudaLaunchAttribute attributes[3]{};
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
  if (config.cooperative) {
    attributes[count].id = cudaLaunchAttributeCooperative;
    attributes[count].val.cooperative = 1;
    ++count;
  }
  cudaLaunchConfig_t launch_config{};
  launch_config.gridDim = config.grid;
  launch_config.blockDim = config.block;
  launch_config.dynamicSmemBytes = config.smem_bytes;
  launch_config.stream = config.stream;
  launch_config.attrs = attributes;
  launch_config.numAttrs = count;
  // The message is made only on failure: it costs a heap allocation a launch.
  if (cudaError_t const e = cudaLaunchKernelEx(&launch_config, kernel, std::forward<Args>(args)...); e != cudaSuccess)
    cuda_check(e, std::string("cudaLaunchKernelEx(") + std::string(name) + ")");
}

}  // namespace cute_cpp::host
