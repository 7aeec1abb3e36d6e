// SPDX-License-Identifier: Apache-2.0
// Cluster launch control on sm_100a and sm_120a: try_cancel is UGETNEXTWORKID.SELFCAST; the
// response is read with one LDS.128 and query_cancel decodes it in ordinary ALU instructions
// (no instruction of its own), so nothing else is matched for it.
// cute-cpp-archs: 100a 120a
// expect-sass: {{"UGETNEXTWORKID\.SELFCAST \[UR[0-9]+\], \[UR[0-9]+\]"}}
// expect-sass: {{"LDS\.128"}}
// reject-sass: {{"UGETNEXTWORKID\.BROADCAST"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#include <ctm/common/clusterlaunchcontrol.hpp>
#include <ctm/common/mbarrier.hpp>

__global__ void clc(std::uint32_t* out) {
  __shared__ alignas(16) std::uint64_t response[2];
  __shared__ alignas(8) std::uint64_t bar;
  if (threadIdx.x == 0) {
    ctm::mbarrier_init(&bar, 1);
    ctm::mbarrier_arrive_expect_tx(&bar, 16);
    ctm::clusterlaunchcontrol_try_cancel(response, &bar);
  }
  ctm::mbarrier_wait_parity(&bar, 0);
  std::uint64_t const lo = response[0], hi = response[1];
  out[0] = ctm::clusterlaunchcontrol_query_cancel_is_canceled(lo, hi);
  out[1] = ctm::clusterlaunchcontrol_query_cancel_get_first_ctaid_x(lo, hi);
  out[2] = ctm::clusterlaunchcontrol_query_cancel_get_first_ctaid_y(lo, hi);
  out[3] = ctm::clusterlaunchcontrol_query_cancel_get_first_ctaid_z(lo, hi);
  uint3 const c = ctm::clusterlaunchcontrol_query_cancel_get_first_ctaid(lo, hi);
  out[4] = c.x + c.y + c.z;
}
