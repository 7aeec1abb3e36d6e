// Cluster launch control needs sm_100 or later: sm_90a rejects try_cancel by name.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: clusterlaunchcontrol\.try_cancel"}}
#include <ctm/common/clusterlaunchcontrol.hpp>
__global__ void kernel() {
  __shared__ alignas(16) std::uint64_t response[2];
  __shared__ alignas(8) std::uint64_t bar;
  ctm::clusterlaunchcontrol_try_cancel(response, &bar);
}
