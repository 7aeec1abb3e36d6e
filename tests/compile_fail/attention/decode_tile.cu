// A decode K/V tile is filled by 16-key boxes (the smallest page): 40 keys is not a whole number of them.
// expected-error {{"attention\.decode-tile"}}
#include "examples/decode_attention_sm90/decode.hpp"
#include <cuda_bf16.h>
namespace ex = cute_cpp::examples;
using Bad = ex::DecodePlan<__nv_bfloat16, 128, 128, ex::DecodeConfig{.block_n = 40}>;
static_assert(Bad::threads == 160);
