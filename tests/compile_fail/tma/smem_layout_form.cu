// A column-major tile is neither TMA form: the error names the accepted forms.
// expected-error {{"tma\.smem-layout\.form"}}
#include <cute_cpp/tma/tensor_map.hpp>
#include <cuda_bf16.h>
using Bad = cute_cpp::TensorMap<__nv_bfloat16, cute_cpp::ColMajor<64, 64>>;
static_assert(Bad::tile_bytes > 0);
