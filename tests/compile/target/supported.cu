// Every supported target passes the gate and sees its own constexpr target.
// cute-cpp-archs: 90a 100a 120a
#include <cute_cpp/config.hpp>
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
static_assert(ctm::current_target == ctm::Target::sm90a);
#elif defined(__CUDA_ARCH_FEAT_SM100_ALL)
static_assert(ctm::current_target == ctm::Target::sm100a);
#elif defined(__CUDA_ARCH_FEAT_SM120_ALL)
static_assert(ctm::current_target == ctm::Target::sm120a);
#else
static_assert(ctm::current_target == ctm::Target::host);
#endif
__global__ void kernel() {}
