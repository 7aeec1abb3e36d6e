// A decode K/V tile is filled by 16-key boxes (the smallest page): 40 keys is not a whole number of them.
// expected-error {{"attention\.decode-tile"}}
#include <cute_cpp/kernels/attention/decode/decode.hpp>
#include <cuda_bf16.h>
namespace kn = cute_cpp::kernels;
using Bad = kn::DecodePlan<__nv_bfloat16, 128, 128, kn::DecodeConfig{.block_n = 40}>;
static_assert(Bad::threads == 160);
