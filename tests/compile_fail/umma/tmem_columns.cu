// Three 256-column accumulators need 768 of the 512 tensor-memory columns.
// cute-cpp-arch: 100a
// expected-error {{"umma\.tmem-columns.*AccColumns=256, AccStages=3"}}
#include <cute_cpp/mma/sm100_umma.hpp>
namespace cc = cute_cpp;
namespace sm = cute_cpp::sm100;
using bf16 = __nv_bfloat16;
using Mma = sm::UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 128, 64>, cc::SmemKMajor<bf16, 256, 64>, 128, 256>;
static_assert(Mma::tmem_columns<3>() > 0);
