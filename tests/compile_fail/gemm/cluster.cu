// The GEMM takes clusters of at most 2 CTAs, along M or along N: 2 x 2 is refused.
// expected-error {{"gemm\.cluster"}}
#include "examples/gemm_sm90/gemm.hpp"
#include <cuda_bf16.h>
using T = __nv_bfloat16;
namespace ex = cute_cpp::examples;
using Bad = ex::GemmPlan<T, T, T, cute_cpp::OperandMajorMode::K, cute_cpp::OperandMajorMode::K, 128, 256,
                         64, 4, 2, cute_cpp::epilogue::Identity, ex::KernelSchedule::Cooperative,
                         cute_cpp::LayoutEnum::RowMajor, 2>;
static_assert(Bad::threads == 384);
