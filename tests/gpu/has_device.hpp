// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whether a CUDA device is present: the GPU tests skip without one.
#include <cuda_runtime_api.h>

namespace cute_cpp::test {

inline bool has_device() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

}  // namespace cute_cpp::test
