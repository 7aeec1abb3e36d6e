// cp.async.wait_group takes 0..7.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[cp-async\.wait-group\]"}}
#include <ctm/common/cp_async.hpp>
__global__ void kernel(float* out, float const* in) {
  ctm::cp_async_wait_group<8>();
}
