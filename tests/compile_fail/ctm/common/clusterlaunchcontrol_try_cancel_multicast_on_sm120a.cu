// The ISA lists try_cancel's .multicast::cluster::all for sm_100a only: sm_120a rejects it by name.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm100a-only\]: clusterlaunchcontrol\.try_cancel\.multicast::cluster::all"}}
#include <ctm/common/clusterlaunchcontrol.hpp>
__global__ void kernel() {
  __shared__ alignas(16) std::uint64_t response[2];
  __shared__ alignas(8) std::uint64_t bar;
  ctm::clusterlaunchcontrol_try_cancel_multicast_cluster_all(response, &bar);
}
