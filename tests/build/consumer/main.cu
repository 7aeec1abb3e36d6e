// SPDX-License-Identifier: Apache-2.0
// Builds for every target in CUTE_CPP_ARCHS through the installed headers.
#include <cute_cpp/config.hpp>
#include <cute_cpp/host.hpp>

#include <cstdio>

__global__ void scale(float* x, float s, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main() {
  std::printf("consumer built for %s\n", cute_cpp::host::compiled_targets().data());
  return 0;
}
