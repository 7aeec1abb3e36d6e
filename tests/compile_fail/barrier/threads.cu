// 100 threads is not a whole number of warps.
// expected-error {{"barrier\.threads.*\n.*\n.*Id=1, Threads=100"}}
#include <cute_cpp/pipeline/named_barrier.hpp>
using Bad = cute_cpp::NamedBarrier<1, 100>;
static_assert(Bad::id == 1);
