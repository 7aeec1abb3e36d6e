// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// What the examples' C entry points share: the element type from a dtype code, errors as a status
// and a message (naming the rule) instead of exceptions, and attention strides from a flat array.
#include <cute_cpp/attention/tensors.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>

namespace cute_cpp::kernels {

/// Calls f(); returns 0, or 1 with the error in `message` (what a C caller can read): no exception
/// crosses into C.
template <class F>
int capi_try(char* message, unsigned long message_size, F&& f) {
  try {
    f();
    return 0;
  } catch (std::exception const& e) {
    if (message != nullptr && message_size > 0) std::snprintf(message, message_size, "%s", e.what());
    return 1;
  }
}

/// Calls f(T{}) with T the element type of `dtype` (0 bf16, 1 f16, and with Float32 2 f32), as
/// capi_try; another code is std::invalid_argument(refusal()), the text made only then.
template <bool Float32, class Refusal, class F>
int capi_call_typed(int dtype, Refusal&& refusal, char* message, unsigned long message_size, F&& f) {
  return capi_try(message, message_size, [&] {
    if (dtype == 0) return f(__nv_bfloat16{});
    if (dtype == 1) return f(__half{});
    if constexpr (Float32) {
      if (dtype == 2) return f(float{});
    }
    throw std::invalid_argument(refusal());
  });
}

/// The attention entry points: bf16 or f16.
template <class F>
int capi_call(int dtype, char* message, unsigned long message_size, F&& f) {
  auto const refusal = [] { return "cute-cpp [attention.dtype]: dtype is 0 (bf16) or 1 (f16)"; };
  return capi_call_typed<false>(dtype, refusal, message, message_size, std::forward<F>(f));
}

/// The row kernels' and elementwise entry points: bf16, f16 or f32 [<area>.dtype].
template <class F>
int capi_call_float(int dtype, char const* area, char* message, unsigned long message_size, F&& f) {
  auto const refusal = [area] {
    return std::string("cute-cpp [") + area + ".dtype]: dtype is 0 (bf16), 1 (f16) or 2 (f32)";
  };
  return capi_call_typed<true>(dtype, refusal, message, message_size, std::forward<F>(f));
}

/// q's, k's, v's and o's element strides (batch or page, seq, head) from 12 values; null leaves
/// them 0 (contiguous).
inline void unpack_attention_strides(long long const* strides, AttentionStrides& q, AttentionStrides& k,
                                     AttentionStrides& v, AttentionStrides& o) {
  AttentionStrides* const s[] = {&q, &k, &v, &o};
  for (int i = 0; i < 4 && strides != nullptr; ++i) *s[i] = {strides[3 * i], strides[3 * i + 1], strides[3 * i + 2]};
}

}  // namespace cute_cpp::kernels
