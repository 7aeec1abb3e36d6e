// A bf16 box 20 elements wide spans 40 bytes: TMA needs a multiple of 16.
// expected-error {{"tma\.box\.inner-bytes.*\n.*\n.*InnerBytes=40"}}
#include <cute_cpp/tma/tensor_map.hpp>
#include <cuda_bf16.h>
using Bad = cute_cpp::TensorMap<__nv_bfloat16, cute_cpp::RowMajor<128, 20>>;
static_assert(Bad::tile_bytes > 0);
