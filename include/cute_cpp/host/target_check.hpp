// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The run-time half of the target gate: before a kernel's first launch, the current device must
// be one the binary carries code for; otherwise the error names the device and those targets.
#include <cute_cpp/host/error.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cute_cpp::host {

/// What the target check needs to know about a device.
struct DeviceInfo {
  std::string name;
  int major = 0;
  int minor = 0;
};

/// The cute-cpp target a compute capability runs ("90a" for 9.0), or "" if none does.
[[nodiscard]] inline std::string target_for(int major, int minor) {
  if (major == 9 && minor == 0) return "90a";
  if (major == 10 && minor == 0) return "100a";
  if (major == 12 && minor == 0) return "120a";
  return "";
}

/// The targets this translation unit's kernels were built for, as "90a,100a,120a".
/// cute_cpp_add_kernels defines CUTE_CPP_TARGETS; code built otherwise reports "unknown".
[[nodiscard]] constexpr std::string_view compiled_targets() {
#if defined(CUTE_CPP_TARGETS)
  return CUTE_CPP_TARGETS;
#else
  return "unknown (not built through cute_cpp_add_kernels)";
#endif
}

[[nodiscard]] inline std::string describe_device(DeviceInfo const& device) {
  return device.name + ", sm_" + std::to_string(device.major * 10 + device.minor);
}

[[nodiscard]] inline bool carries(std::string_view targets, std::string_view target) {
  while (!targets.empty()) {
    auto const comma = targets.find(',');
    if (targets.substr(0, comma) == target) return true;
    if (comma == std::string_view::npos) break;
    targets.remove_prefix(comma + 1);
  }
  return false;
}

[[nodiscard]] inline std::string unsupported_device_message(DeviceInfo const& device,
                                                            std::string_view targets,
                                                            std::string_view kernel) {
  std::string text = "cute-cpp [target.device]: ";
  text += kernel.empty() ? std::string("this binary") : "kernel " + std::string(kernel);
  text += " cannot run on device " + describe_device(device);
  text += "; the binary carries code for " + std::string(targets);
  auto const target = target_for(device.major, device.minor);
  text += target.empty() ? "; cute-cpp supports sm_90a, sm_100a and sm_120a only"
                         : "; rebuild with CUTE_CPP_ARCHS including " + target;
  return text;
}

/// Throws std::runtime_error unless `device` runs one of `targets` ("90a,100a").
inline void check_device_supported(DeviceInfo const& device, std::string_view targets,
                                   std::string_view kernel = {}) {
  auto const target = target_for(device.major, device.minor);
  if (target.empty() || !carries(targets, target))
    throw std::runtime_error(unsupported_device_message(device, targets, kernel));
}

/// The current device, as the target check sees it.
[[nodiscard]] inline DeviceInfo current_device() {
  int ordinal = 0;
  cuda_check(cudaGetDevice(&ordinal), "cudaGetDevice");
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
  return {prop.name, prop.major, prop.minor};
}

/// The current device's multiprocessor count (what persistent grids and tile heuristics size by).
[[nodiscard]] inline int multiprocessor_count() {
  int ordinal = 0, count = 0;
  cuda_check(cudaGetDevice(&ordinal), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, ordinal), "cudaDeviceGetAttribute");
  return count;
}

/// The current device's L2 cache size in bytes (what tile orders that reuse operands in L2 size by).
[[nodiscard]] inline std::int64_t l2_cache_bytes() {
  int ordinal = 0, bytes = 0;
  cuda_check(cudaGetDevice(&ordinal), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, ordinal), "cudaDeviceGetAttribute");
  return bytes;
}

/// The current device's shared memory per multiprocessor in bytes (how many CTAs of a shared-memory
/// size fit an SM at once).
[[nodiscard]] inline std::int64_t shared_memory_per_multiprocessor() {
  int ordinal = 0, bytes = 0;
  cuda_check(cudaGetDevice(&ordinal), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, ordinal),
             "cudaDeviceGetAttribute");
  return bytes;
}

/// The current device's most shared memory one CTA may take (static and dynamic, opted in), bytes.
[[nodiscard]] inline std::int64_t shared_memory_per_block_optin() {
  int ordinal = 0, bytes = 0;
  cuda_check(cudaGetDevice(&ordinal), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal), "cudaDeviceGetAttribute");
  return bytes;
}

/// Checks that `kernel` has code for the current device: the device must be a cute-cpp target
/// the binary carries, and the runtime must find the kernel's image for it.
inline void check_kernel_target(void const* kernel, std::string_view name,
                                std::string_view targets = compiled_targets()) {
  DeviceInfo const device = current_device();
  check_device_supported(device, targets, name);
  cudaFuncAttributes attributes{};
  cudaError_t const code = cudaFuncGetAttributes(&attributes, kernel);
  if (code == cudaErrorInvalidDeviceFunction || code == cudaErrorNoKernelImageForDevice) {
    (void)cudaGetLastError();
    throw std::runtime_error(unsupported_device_message(device, targets, name));
  }
  cuda_check(code, "cudaFuncGetAttributes");
}

}  // namespace cute_cpp::host
