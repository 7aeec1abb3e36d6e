// Groups of 64 threads hold the plan's 4 vectors a thread per round; 8 is only for whole blocks.
// expected-error {{"rows\.slots.*\n.*\n.*ThreadsPerRow=64, Slots=8"}}
#include <cute_cpp/rows/config.hpp>
using Bad = cute_cpp::RowConfig<8, 64, true, 8>;
static_assert(Bad::slots == 8);
