// cp.async.bulk.wait_group takes 0..63.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[cp-async-bulk\.wait-group\]"}}
#include <ctm/common/cp_async_bulk.hpp>
__global__ void kernel(float* out, float const* in) {
  ctm::cp_async_bulk_wait_group_read<64>();
}
