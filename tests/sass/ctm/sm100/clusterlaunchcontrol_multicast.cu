// SPDX-License-Identifier: Apache-2.0
// The multicast try_cancel (response written to every CTA of the cluster) is
// UGETNEXTWORKID.BROADCAST on sm_100a.
// cute-cpp-arch: 100a
// expect-sass: {{"UGETNEXTWORKID\.BROADCAST \[UR[0-9]+\], \[UR[0-9]+\]"}}
// reject-sass: {{"UGETNEXTWORKID\.SELFCAST"}}
#include <ctm/common/clusterlaunchcontrol.hpp>

__global__ void clc_multicast() {
  __shared__ alignas(16) std::uint64_t response[2];
  __shared__ alignas(8) std::uint64_t bar;
  if (threadIdx.x == 0) ctm::clusterlaunchcontrol_try_cancel_multicast_cluster_all(response, &bar);
}
