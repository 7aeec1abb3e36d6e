// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry point to softmax (libcute_cpp_softmax.so and its generated header cute_cpp_softmax.h,
// made by cute_cpp_export).
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>

extern "C" {

/// y = softmax(x) over each row of a (rows, width) row-major tensor (fp32 inside). dtype: 0 bf16,
/// 1 f16, 2 f32. stream: a cudaStream_t. Returns 0, or 1 with the error (naming the rule) in `message`.
int cute_cpp_softmax(int dtype, void const* x, void* y, unsigned long long rows, unsigned long long width,
                     void* stream, char* message, unsigned long message_size) {
  namespace kn = cute_cpp::kernels;
  return kn::capi_call_float(dtype, "softmax", message, message_size, [&](auto tag) {
    using T = decltype(tag);
    kn::softmax<T>(static_cast<T const*>(x), static_cast<T*>(y), rows, width, static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
