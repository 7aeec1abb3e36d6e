// SPDX-License-Identifier: Apache-2.0
// A user's C entry point, exported with the installed cute_cpp_export.
#include <cuda_runtime.h>

__global__ void scale_kernel(float* x, float s, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

extern "C" {

/// x[i] *= s for n floats on `stream` (a cudaStream_t); returns 0, or 1 for a negative n or a null x.
int cute_cpp_consumer_scale(float* x, float s, int n, void* stream) {
  if (n < 0 || (n > 0 && x == nullptr)) return 1;
  if (n > 0) scale_kernel<<<(n + 255) / 256, 256, 0, static_cast<cudaStream_t>(stream)>>>(x, s, n);
  return 0;
}

}  // extern "C"
