// The 256 x 352 pair with two accumulator stages: 2 stages x 2 atoms x 176 columns = 704 of the
// 512 tensor-memory columns.
// cute-cpp-arch: 100a
// expected-error {{"umma\.tmem-columns.*AccColumns=176, AccStages=4"}}
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>
namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
using Bad = kn::GemmSm100Plan<bf16, bf16, bf16,
                              kn::GemmSm100Config{.block_m = 256, .block_n = 352, .cta_group = 2, .atoms_n = 2,
                                                  .stages = 5, .acc_stages = 2}>;
static_assert(Bad::threads > 0);
