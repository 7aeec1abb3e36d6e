// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch cluster launch control: issue_clc_query (clusterlaunchcontrol.try_cancel, optionally
// multicast to every CTA of the cluster) and clc_response (the response decoded with
// clusterlaunchcontrol.query_cancel), and ClcResponse, the 16-byte shared-memory slot a request
// writes. sm_100a and sm_120a (multicast: sm_100a): the ctm instructions reject other targets by name.
#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/clusterlaunchcontrol.hpp>
#endif

namespace cute_cpp {

/// The opaque 16-byte response of a cluster launch control request, in shared memory.
struct alignas(16) ClcResponse {
  std::uint64_t lo = 0, hi = 0;
};
static_assert(sizeof(ClcResponse) == 16);

}  // namespace cute_cpp

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// Issues a cluster launch control request (one thread per request): the response lands in
/// `response` (with Multicast, at its offset in every CTA of the cluster) and completes 16
/// transaction bytes on `mbar` (each CTA's barrier at that offset, with Multicast).
/// @pre the barrier expects the 16 bytes (mbarrier arrive.expect_tx); this CTA has not yet
///      observed a response that says "not canceled".
template <bool Multicast = false, class Target = void>
__device__ __forceinline__ void issue_clc_query(std::uint64_t* mbar, ClcResponse* response) {
  if constexpr (Multicast) ctm::clusterlaunchcontrol_try_cancel_multicast_cluster_all<Target>(response, mbar);
  else ctm::clusterlaunchcontrol_try_cancel<Target>(response, mbar);
}

/// A decoded response: whether a cluster was canceled and, if so, its first CTA's %ctaid.
struct ClcWorkId {
  std::uint32_t x = 0, y = 0, z = 0;
  bool valid = false;
};

/// Decodes a completed response: (x, y, z) of the canceled cluster's first CTA, valid; or
/// valid = false and zeros (the coordinates are queried only for a canceled cluster: the ISA
/// leaves them undefined otherwise).
template <class Target = void>
__device__ __forceinline__ ClcWorkId clc_response(ClcResponse const* response) {
  ClcResponse const r = *response;
  ClcWorkId id;
  id.valid = ctm::clusterlaunchcontrol_query_cancel_is_canceled<Target>(r.lo, r.hi);
  if (id.valid) {
    uint3 const c = ctm::clusterlaunchcontrol_query_cancel_get_first_ctaid<Target>(r.lo, r.hi);
    id.x = c.x;
    id.y = c.y;
    id.z = c.z;
  }
  return id;
}

}  // namespace cute_cpp::arch
#endif
