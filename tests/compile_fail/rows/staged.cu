// Only a row split over the blocks of a cluster is staged in shared memory: a row of a 64-thread
// group has no segment of a block.
// expected-error {{"rows\.staged.*\n.*\n.*Staged=true, Cached=true, ThreadsPerRow=64"}}
#include <cute_cpp/rows/config.hpp>
using Bad = cute_cpp::RowConfig<8, 64, true, 4, true>;
static_assert(Bad::staged);
