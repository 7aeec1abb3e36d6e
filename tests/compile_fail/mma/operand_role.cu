// The B tile passed in A's place (and A's in B's): the role tags say so.
// expected-error {{"mma\.operand-role.*Position=0, Tagged=1"}}
#include <cute_cpp/mma/sm90_wgmma.hpp>
using T = __nv_bfloat16;
using A = cute_cpp::sm90::AOperand<cute_cpp::SmemKMajor<T, 128, 64>>;
using B = cute_cpp::sm90::BOperand<cute_cpp::SmemKMajor<T, 128, 64>>;
using Bad = cute_cpp::sm90::WgmmaTiledMma<T, T, float, B, A, 1, 128>;
static_assert(Bad::n == 128);
