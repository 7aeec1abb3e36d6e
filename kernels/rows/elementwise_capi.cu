// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry point to elementwise (libcute_cpp_elementwise.so and its generated header cute_cpp_elementwise.h,
// made by cute_cpp_export).
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/rows/elementwise.cuh>

extern "C" {

/// out = a + b over n elements of one dtype (0 bf16, 1 f16, 2 f32; computed in fp32). stream: a
/// cudaStream_t. Returns 0, or 1 with the error (naming the rule) in `message`.
int cute_cpp_add(int dtype, void const* a, void const* b, void* out, unsigned long long n, void* stream,
                 char* message, unsigned long message_size) {
  namespace kn = cute_cpp::kernels;
  return kn::capi_call_float(dtype, "elementwise", message, message_size, [&](auto tag) {
    using T = decltype(tag);
    kn::elementwise_add(static_cast<T const*>(a), static_cast<T const*>(b), static_cast<T*>(out), n,
                        static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
