// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/common/clusterlaunchcontrol.hpp: cluster launch control (CLC). try_cancel asks the hardware
// to cancel a cluster of this grid that has not started and writes a 16-byte response to shared
// memory, completing 16 transaction bytes on an mbarrier; query_cancel decodes the response.
// CuTeDSL: cute.arch.issue_clc_query, cute.arch.clc_response. Targets (PTX ISA 8.6): try_cancel
// and query_cancel need sm_100 or later (sm_100a, sm_120a); .multicast::cluster::all is listed for
// sm_100a (and sm_110a) only. SASS: try_cancel is UGETNEXTWORKID.SELFCAST (.BROADCAST with
// multicast), inside an ELECT loop (once per issuing thread); query_cancel is plain ALU work on
// the response's registers.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE, cvta_to_shared_u32, detail::always_false

#if defined(__CUDACC__)
namespace ctm {

namespace detail {
// NOTE: one gate per instruction because nvcc prints only a literal static_assert message.
template <class Target>
CTM_DEVICE void gate_clusterlaunchcontrol_try_cancel() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL) && !defined(__CUDA_ARCH_FEAT_SM120_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-sm120a-only]: clusterlaunchcontrol.try_cancel does not exist on sm_90a; "
      "use StaticPersistentTileScheduler there");
#  endif
}
template <class Target>
CTM_DEVICE void gate_clusterlaunchcontrol_try_cancel_multicast() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: clusterlaunchcontrol.try_cancel.multicast::cluster::all exists only on "
      "sm_100a; on sm_120a use the non-multicast form with a cluster of one CTA");
#  endif
}
template <class Target>
CTM_DEVICE void gate_clusterlaunchcontrol_query_cancel() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL) && !defined(__CUDA_ARCH_FEAT_SM120_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-sm120a-only]: clusterlaunchcontrol.query_cancel does not exist on sm_90a");
#  endif
}
}  // namespace detail

// ---- try_cancel ----

/// clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [addr],
/// [mbar]: asks to cancel a not yet started cluster of this grid; the 16-byte response lands at
/// `response` and completes 16 transaction bytes on `mbar` (armed by the caller with
/// mbarrier_arrive_expect_tx). One thread issues it per request.
/// @pre response is 16-byte aligned shared memory; after a response that says "not canceled"
///      this CTA must not issue another request (the ISA leaves that undefined).
template <class Target = void>
CTM_DEVICE void clusterlaunchcontrol_try_cancel(void* response, std::uint64_t* mbar) {
  detail::gate_clusterlaunchcontrol_try_cancel<Target>();
  asm volatile(
      "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];\n"
      :: "r"(cvta_to_shared_u32(response)), "r"(cvta_to_shared_u32(mbar)) : "memory");
}

/// clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes
/// .multicast::cluster::all.b128 [addr], [mbar]: as above, with the response written at the same
/// offset in every CTA of the cluster, each completing 16 bytes on its own barrier at `mbar`'s
/// offset. Target: sm_100a only.
template <class Target = void>
CTM_DEVICE void clusterlaunchcontrol_try_cancel_multicast_cluster_all(void* response, std::uint64_t* mbar) {
  detail::gate_clusterlaunchcontrol_try_cancel_multicast<Target>();
  asm volatile(
      "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 "
      "[%0], [%1];\n" :: "r"(cvta_to_shared_u32(response)), "r"(cvta_to_shared_u32(mbar)) : "memory");
}

// ---- query_cancel ----
// The response is passed as its two 64-bit halves (lo: bytes 0-7, hi: bytes 8-15), packed into
// the instruction's .b128 operand by a register move.

/// clusterlaunchcontrol.query_cancel.is_canceled.pred.b128: whether the request canceled a
/// cluster (false: none was left, or the grid is being preempted).
template <class Target = void>
CTM_DEVICE bool clusterlaunchcontrol_query_cancel_is_canceled(std::uint64_t lo, std::uint64_t hi) {
  detail::gate_clusterlaunchcontrol_query_cancel<Target>();
  std::uint32_t canceled;
  asm volatile(
      "{\n.reg .b128 r;\n.reg .pred p;\nmov.b128 r, {%1, %2};\n"
      "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, r;\nselp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(canceled) : "l"(lo), "l"(hi));
  return canceled != 0;
}

/// clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128: %ctaid.x of the canceled
/// cluster's first CTA. @pre the response says canceled (else the result is undefined).
template <class Target = void>
CTM_DEVICE std::uint32_t clusterlaunchcontrol_query_cancel_get_first_ctaid_x(std::uint64_t lo, std::uint64_t hi) {
  detail::gate_clusterlaunchcontrol_query_cancel<Target>();
  std::uint32_t x;
  asm volatile("{\n.reg .b128 r;\nmov.b128 r, {%1, %2};\n"
               "clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %0, r;\n}\n"
               : "=r"(x) : "l"(lo), "l"(hi));
  return x;
}

/// clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128: %ctaid.y of the first CTA.
template <class Target = void>
CTM_DEVICE std::uint32_t clusterlaunchcontrol_query_cancel_get_first_ctaid_y(std::uint64_t lo, std::uint64_t hi) {
  detail::gate_clusterlaunchcontrol_query_cancel<Target>();
  std::uint32_t y;
  asm volatile("{\n.reg .b128 r;\nmov.b128 r, {%1, %2};\n"
               "clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 %0, r;\n}\n"
               : "=r"(y) : "l"(lo), "l"(hi));
  return y;
}

/// clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128: %ctaid.z of the first CTA.
template <class Target = void>
CTM_DEVICE std::uint32_t clusterlaunchcontrol_query_cancel_get_first_ctaid_z(std::uint64_t lo, std::uint64_t hi) {
  detail::gate_clusterlaunchcontrol_query_cancel<Target>();
  std::uint32_t z;
  asm volatile("{\n.reg .b128 r;\nmov.b128 r, {%1, %2};\n"
               "clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128 %0, r;\n}\n"
               : "=r"(z) : "l"(lo), "l"(hi));
  return z;
}

/// clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128: (x, y, z) of the first CTA.
template <class Target = void>
CTM_DEVICE uint3 clusterlaunchcontrol_query_cancel_get_first_ctaid(std::uint64_t lo, std::uint64_t hi) {
  detail::gate_clusterlaunchcontrol_query_cancel<Target>();
  uint3 c;
  asm volatile("{\n.reg .b128 r;\nmov.b128 r, {%3, %4};\n"
               "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%0, %1, %2, _}, r;\n}\n"
               : "=r"(c.x), "=r"(c.y), "=r"(c.z) : "l"(lo), "l"(hi));
  return c;
}

}  // namespace ctm
#endif  // __CUDACC__
