// TMA swizzles shift by 3 (Swizzle<B, M, 3>); Swizzle<2,3,4> is no TMA mode.
// expected-error {{"tma\.swizzle\.mode.*Bits=2, Shift=4"}}
#include <cute_cpp/tma/tensor_map.hpp>
#include <cuda_bf16.h>
using L = cute_cpp::ComposedLayout<cute_cpp::Swizzle<2, 3, 4>, 0, cute_cpp::RowMajor<64, 32>>;
using Bad = cute_cpp::TensorMap<__nv_bfloat16, L>;
static_assert(Bad::tile_bytes > 0);
