// cp.async.cg copies 16 bytes only: 8 is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[cp-async\.size\]: cp\.async\.cg"}}
#include <ctm/common/cp_async.hpp>
__global__ void kernel(float* out, float const* in) {
  __shared__ float buf[4];
  ctm::cp_async_cg_shared_global<8>(buf, in);
}
