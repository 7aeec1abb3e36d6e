// elementwise_apply with an output and no inputs.
// expected-error {{"elementwise\.inputs"}}
#include <cute_cpp/kernels/rows/elementwise.cuh>
struct One {
  CUTE_CPP_HD float operator()() const { return 1.0f; }
};
void fill(float* out) { cute_cpp::kernels::elementwise_apply(One{}, 16, nullptr, out); }
