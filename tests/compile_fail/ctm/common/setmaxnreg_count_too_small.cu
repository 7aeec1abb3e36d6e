// setmaxnreg takes at least 24 registers: 16 is rejected (on sm_100a, where it also exists).
// cute-cpp-arch: 100a
// expected-error {{"ctm \[setmaxnreg\.count\]"}}
#include <ctm/common/setmaxnreg.hpp>
__global__ void kernel(float* out, float const* in) {
  ctm::setmaxnreg_dec<16>();
}
