// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// A block reduction runs over whole warps: 100 threads are rejected.
#include <cute_cpp/tensor/reduce.hpp>
// expected-error {{"tensor\.block-reduce\.threads.*\n.*with Threads=100"}}
__global__ void f(float* out) {
  __shared__ float scratch[32];
  *out = cute_cpp::block_reduction_sum<100>(1.f, scratch);
}
