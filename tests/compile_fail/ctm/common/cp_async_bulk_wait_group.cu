// cp.async.bulk.wait_group takes a count in 0..63.
// expected-error {{"cp-async-bulk\.wait-group"}}
#include <ctm/common/cp_async_bulk.hpp>
__global__ void kernel() { ctm::cp_async_bulk_wait_group<64>(); }
