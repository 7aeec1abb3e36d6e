// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry point to RMSNorm (libcute_cpp_rmsnorm.so and its generated header
// cute_cpp_rmsnorm.h, made by cute_cpp_export).
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" {

/// y = rmsnorm(x [+ residual]) * w over each row of a (rows, width) row-major tensor; with a
/// residual, residual_out = x + residual too (both null or both set). dtype: 0 bf16, 1 f16,
/// 2 f32. stream: a cudaStream_t. Returns 0, or 1 with the error (naming the rule) in `message`.
int cute_cpp_rmsnorm(int dtype, void const* x, void const* residual, void const* w, void* y, void* residual_out,
                     unsigned long long rows, unsigned long long width, float eps, void* stream, char* message,
                     unsigned long message_size) {
  namespace kn = cute_cpp::kernels;
  return kn::capi_call_float(dtype, "rmsnorm", message, message_size, [&](auto tag) {
    using T = decltype(tag);
    if (x == nullptr || w == nullptr || y == nullptr)
      cute_cpp::host::argument_error("rmsnorm.pointers", "x, w and y must be device pointers (one is null)");
    kn::rmsnorm<T>(static_cast<T const*>(x), static_cast<T const*>(residual), static_cast<T const*>(w),
                   static_cast<T*>(y), static_cast<T*>(residual_out), rows, width, eps,
                   static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
