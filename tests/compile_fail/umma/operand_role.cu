// The tile tagged as B is passed in A's place.
// cute-cpp-arch: 100a
// expected-error {{"umma\.operand-role"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using L = cc::SmemKMajor<bf16, 128, 64>;
using Bad = sm::UmmaTiledMma<bf16, bf16, float, sm::BOperand<L>, sm::AOperand<L>, 128, 128>;
static_assert(Bad::k_slices > 0);
