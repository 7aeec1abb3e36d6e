// setmaxnreg takes at most 256 registers: 264 is rejected (on sm_120a, where it also exists).
// cute-cpp-arch: 120a
// expected-error {{"ctm \[setmaxnreg\.count\]"}}
#include <ctm/common/setmaxnreg.hpp>
__global__ void kernel(float* out, float const* in) {
  ctm::setmaxnreg_inc<264>();
}
