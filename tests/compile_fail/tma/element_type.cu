// TMA moves elements of 1, 2, 4 or 8 bytes; a 16-byte element is none of them.
// expected-error {{"tma\.element-type.*ElemBytes=16"}}
#include <cute_cpp/tma/tensor_map.hpp>
struct alignas(16) Quad { float v[4]; };
using Bad = cute_cpp::TensorMap<Quad, cute_cpp::RowMajor<16, 16>>;
static_assert(Bad::tile_bytes > 0);
