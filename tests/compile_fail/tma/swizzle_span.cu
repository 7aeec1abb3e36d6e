// A K-major bf16 tile 128 wide is 256 bytes per row: wider than the 128-byte swizzle.
// expected-error {{"tma\.box\.swizzle-span.*\n.*\n.*InnerBytes=256, SwizzleBytes=128"}}
#include <cute_cpp/tma/tensor_map.hpp>
#include <cuda_bf16.h>
using Bad = cute_cpp::TensorMap<__nv_bfloat16, cute_cpp::SmemKMajor<__nv_bfloat16, 64, 128>>;
static_assert(Bad::tile_bytes > 0);
