// Storing 8 register values into a 4 x 4 tensor: the sizes must match.
// expected-error {{"tensor\.store\.size"}}
#include <cute_cpp/tensor.hpp>
__global__ void kernel(float* out) {
  auto t = cute_cpp::make_tensor(out, cute_cpp::RowMajor<4, 4>{});
  cute_cpp::RegisterTile<float, 8> tile{};
  t.store(tile);
}
