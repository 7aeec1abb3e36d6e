// An e4m3 decode cache is read in boxes of 128 columns (one 128-byte swizzle row): head dim 64 has
// no whole box.
// expected-error {{"attention\.fp8-kv"}}
#include "examples/decode_attention_sm90/decode.hpp"
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace ex = cute_cpp::examples;
using Bad = ex::DecodePlan<__nv_bfloat16, 64, 64, ex::DecodeConfig{}, __nv_fp8_e4m3>;
static_assert(Bad::threads > 0);
