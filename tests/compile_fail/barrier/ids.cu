// Two warpgroups of epilogue barriers and eight pairs of schedule barriers: 18 ids, 15 exist.
// expected-error {{"barrier\.ids.*\n.*\n.*IdsUsed=18"}}
#include <cute_cpp/pipeline/named_barrier.hpp>
using Bad = cute_cpp::NamedBarrierAllocation<cute_cpp::BarrierRequest<2, 128>, cute_cpp::BarrierRequest<16, 256>>;
static_assert(Bad::ids_used == 18);
