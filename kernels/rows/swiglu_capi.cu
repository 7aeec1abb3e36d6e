// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry point to swiglu (libcute_cpp_swiglu.so and its generated header cute_cpp_swiglu.h,
// made by cute_cpp_export).
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>

extern "C" {

/// out (rows, hidden) = silu(x[:, :hidden]) * x[:, hidden:] for x of (rows, 2 hidden), row-major.
/// dtype: 0 bf16, 1 f16, 2 f32. stream: a cudaStream_t. Returns 0, or 1 with the error (naming the
/// rule) in `message`.
int cute_cpp_swiglu(int dtype, void const* x, void* out, unsigned long long rows, unsigned long long hidden,
                    void* stream, char* message, unsigned long message_size) {
  namespace kn = cute_cpp::kernels;
  return kn::capi_call_float(dtype, "swiglu", message, message_size, [&](auto tag) {
    using T = decltype(tag);
    kn::swiglu<T>(static_cast<T const*>(x), static_cast<T*>(out), rows, hidden, static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
