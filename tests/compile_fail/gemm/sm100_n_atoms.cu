// Two UMMA atoms along N over an MN-major B: the second atom's columns would start inside a
// 64-column swizzle block.
// cute-cpp-arch: 100a
// expected-error {{"gemm\.sm100\.n-atoms.*AtomsN=2, BKMajor=false"}}
#include <cute_cpp/kernels/gemm/gemm_plan_sm100.hpp>
namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
using Bad = kn::GemmSm100Plan<bf16, bf16, bf16,
                              kn::GemmSm100Config{.block_n = 256, .atoms_n = 2,
                                                  .major_b = cute_cpp::OperandMajorMode::MN}>;
static_assert(Bad::threads > 0);
