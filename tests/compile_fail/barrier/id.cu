// Named barrier 16 does not exist (0..15).
// expected-error {{"barrier\.id.*\n.*\n.*Id=16, Threads=128"}}
#include <cute_cpp/pipeline/named_barrier.hpp>
using Bad = cute_cpp::NamedBarrier<16, 128>;
static_assert(Bad::id == 16);
