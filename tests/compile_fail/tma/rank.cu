// TMA tensors have rank 2 to 5.
// expected-error {{"tma\.rank"}}
#include <cute_cpp/host/tensor_map_encode.hpp>
using T = __nv_bfloat16;
void encode(T const* p) {
  (void)cute_cpp::host::create_tensor_map_tiled<T, cute_cpp::SmemKMajor<T, 64, 64>, 6>(p, {64, 64, 1, 1, 1, 1},
                                                                                    {128, 8192, 8192, 8192, 8192});
}
