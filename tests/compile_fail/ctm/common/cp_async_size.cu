// cp.async copies 4, 8 or 16 bytes: 2 is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[cp-async\.size\]"}}
#include <ctm/common/cp_async.hpp>
__global__ void kernel(float* out, float const* in) {
  __shared__ float buf[4];
  ctm::cp_async_ca_shared_global<2>(buf, in);
}
