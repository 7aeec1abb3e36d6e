// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry point to reduce (libcute_cpp_reduce.so and its generated header cute_cpp_reduce.h,
// made by cute_cpp_export).
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/rows/instances.hpp>

extern "C" {

/// out[r] = the sum (op 0) or the maximum (op 1) of row r of a (rows, width) row-major tensor, in
/// fp32. dtype: 0 bf16, 1 f16, 2 f32. stream: a cudaStream_t. Returns 0, or 1 with the error
/// (naming the rule) in `message`.
int cute_cpp_reduce_rows(int op, int dtype, void const* x, float* out, unsigned long long rows,
                         unsigned long long width, void* stream, char* message, unsigned long message_size) {
  namespace kn = cute_cpp::kernels;
  return kn::capi_call_float(dtype, "reduce", message, message_size, [&](auto tag) {
    using T = decltype(tag);
    auto const s = static_cast<cudaStream_t>(stream);
    if (op == 0) kn::reduce_rows<kn::RowReduction::sum, T>(static_cast<T const*>(x), out, rows, width, s);
    else if (op == 1) kn::reduce_rows<kn::RowReduction::max, T>(static_cast<T const*>(x), out, rows, width, s);
    else cute_cpp::host::argument_error("reduce.op", "op is 0 (sum) or 1 (max)");
  });
}

}  // extern "C"
