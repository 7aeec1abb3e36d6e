// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whether a CUDA device is present: the GPU tests skip without one.
#include <cuda_runtime_api.h>

#include <cstdlib>

namespace cute_cpp::test {

inline bool has_device() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

/// Whether the program runs under compute-sanitizer (scripts/gpu-check sets CUTE_CPP_SANITIZER): the
/// cases that fail on purpose (a launch the runtime refuses, a trap that ends the context and leaves
/// its buffers unfreeable) are then skipped, since the sanitizer counts them as errors.
inline bool under_sanitizer() { return std::getenv("CUTE_CPP_SANITIZER") != nullptr; }

}  // namespace cute_cpp::test
