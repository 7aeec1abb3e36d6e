// A row belongs to a warp, a group of 64 or 128 threads, or a block of 256: 96 threads is none.
// expected-error {{"rows\.threads-per-row.*\n.*\n.*ThreadsPerRow=96"}}
#include <cute_cpp/rows/config.hpp>
using Bad = cute_cpp::RowConfig<8, 96, true>;
static_assert(Bad::rows_per_block > 0);
