// A 2-CTA M = 256 plan reads 128 rows of A per CTA, not 256.
// cute-cpp-arch: 100a
// expected-error {{"umma\.operand-extent.*TileRows=256, Needed=128"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using Bad = sm::UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 256, 64>, cc::SmemKMajor<bf16, 128, 64>, 256, 256, 2>;
static_assert(Bad::k_slices > 0);
