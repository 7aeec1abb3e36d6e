// An e4m3 decode cache is read in boxes of 128 columns (one 128-byte swizzle row): head dim 64 has
// no whole box.
// expected-error {{"attention\.fp8-kv"}}
#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::DecodePlan<__nv_bfloat16, 64, 64, kn::DecodeConfig{}, __nv_fp8_e4m3>;
static_assert(Bad::threads > 0);
