// Sw<3,4,3> moves 16-element units: right for 8-bit elements, wrong for bf16 (Sw<3,3,3>).
// expected-error {{"tma\.swizzle\.unit.*\n.*\n.*Base=4, ElemBytes=2"}}
#include <cute_cpp/tma/tensor_map.hpp>
#include <cuda_bf16.h>
using L = cute_cpp::ComposedLayout<cute_cpp::Swizzle<3, 4, 3>, 0, cute_cpp::RowMajor<64, 64>>;
using Bad = cute_cpp::TensorMap<__nv_bfloat16, L>;
static_assert(Bad::tile_bytes > 0);
