// elementwise_apply with an output and no inputs.
// expected-error {{"elementwise\.inputs"}}
#include "examples/elementwise/elementwise.cuh"
struct One {
  CUTE_CPP_HD float operator()() const { return 1.0f; }
};
void fill(float* out) { cute_cpp::examples::elementwise_apply(One{}, 16, nullptr, out); }
