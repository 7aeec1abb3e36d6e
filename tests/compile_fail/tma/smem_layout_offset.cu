// A TMA tile starts at its buffer: a composed layout with offset 64 is rejected.
// expected-error {{"tma\.smem-layout\.offset"}}
#include <cute_cpp/tma/tensor_map.hpp>
#include <cuda_bf16.h>
using L = cute_cpp::ComposedLayout<cute_cpp::Swizzle<3, 3, 3>, 64, cute_cpp::RowMajor<64, 64>>;
using Bad = cute_cpp::TensorMap<__nv_bfloat16, L>;
static_assert(Bad::tile_bytes > 0);
