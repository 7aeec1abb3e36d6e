// setmaxnreg takes a multiple of 8: 100 is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[setmaxnreg\.count\]"}}
#include <ctm/common/setmaxnreg.hpp>
__global__ void kernel(float* out, float const* in) {
  ctm::setmaxnreg_inc<100>();
}
