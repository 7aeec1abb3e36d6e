// cp.async copies 4, 8 or 16 bytes.
// expected-error {{"cp-async\.size"}}
#include <ctm/common/cp_async.hpp>
__global__ void kernel(float const* src) {
  __shared__ float dst[4];
  ctm::cp_async_ca_shared_global<12>(dst, src);
}
