// 128 KB of shared memory fits sm_90a but not sm_120a's 99 KB: the sm_120a device pass says so.
// cute-cpp-arch: 120a
// expected-error {{"smem\.budget.*SmemBytes=131072UL, Budget=101376UL, TargetArch=120"}}
#include <cute_cpp/diag/verify_plan.hpp>
struct Plan {
  static constexpr int threads = 256;
  static constexpr unsigned long smem_bytes = 131072;
};
__global__ void kernel() { static_assert(cute_cpp::verify_plan<Plan>()); }
