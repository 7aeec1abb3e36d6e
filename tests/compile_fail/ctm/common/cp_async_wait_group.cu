// cp.async.wait_group takes a count in 0..7.
// expected-error {{"cp-async\.wait-group"}}
#include <ctm/common/cp_async.hpp>
__global__ void kernel() { ctm::cp_async_wait_group<9>(); }
