// A box of 300 rows: every TMA box extent is at most 256.
// expected-error {{"tma\.box\.extent.*\n.*\n.*Inner=64, Outer=300"}}
#include <cute_cpp/tma/tensor_map.hpp>
#include <cuda_bf16.h>
using Bad = cute_cpp::TensorMap<__nv_bfloat16, cute_cpp::SmemKMajor<__nv_bfloat16, 300, 64>>;
static_assert(Bad::tile_bytes > 0);
