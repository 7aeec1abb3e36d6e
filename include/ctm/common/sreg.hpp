// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Special registers: lane, warp and SM ids, the cluster registers (%clusterid, %nclusterid,
// %cluster_ctaid, %cluster_nctaid, %cluster_ctarank, %cluster_nctarank, %is_explicit_cluster),
// and the clocks (%clock, %clock64, %globaltimer). Names: the register, `.`→`_`.
// Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

// ---- thread, warp, SM ----

/// %laneid: this thread's lane in its warp, 0..31.
CTM_DEVICE std::uint32_t laneid() {
  std::uint32_t r;
  asm("mov.u32 %0, %%laneid;\n" : "=r"(r));
  return r;
}
/// %warpid: the warp's slot on its SM (volatile: it can change under preemption; not the
/// warp index in the CTA, which is threadIdx-derived).
CTM_DEVICE std::uint32_t warpid() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%warpid;\n" : "=r"(r));
  return r;
}
/// %smid: the SM this thread runs on.
CTM_DEVICE std::uint32_t smid() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%smid;\n" : "=r"(r));
  return r;
}

// ---- cluster ----

/// %clusterid.{x,y,z}: the cluster's position in the grid of clusters.
CTM_DEVICE std::uint32_t clusterid_x() { std::uint32_t r; asm("mov.u32 %0, %%clusterid.x;\n" : "=r"(r)); return r; }
CTM_DEVICE std::uint32_t clusterid_y() { std::uint32_t r; asm("mov.u32 %0, %%clusterid.y;\n" : "=r"(r)); return r; }
CTM_DEVICE std::uint32_t clusterid_z() { std::uint32_t r; asm("mov.u32 %0, %%clusterid.z;\n" : "=r"(r)); return r; }
/// %nclusterid.{x,y,z}: the grid's extent in clusters.
CTM_DEVICE std::uint32_t nclusterid_x() { std::uint32_t r; asm("mov.u32 %0, %%nclusterid.x;\n" : "=r"(r)); return r; }
CTM_DEVICE std::uint32_t nclusterid_y() { std::uint32_t r; asm("mov.u32 %0, %%nclusterid.y;\n" : "=r"(r)); return r; }
CTM_DEVICE std::uint32_t nclusterid_z() { std::uint32_t r; asm("mov.u32 %0, %%nclusterid.z;\n" : "=r"(r)); return r; }
/// %cluster_ctaid.{x,y,z}: this CTA's position in its cluster.
CTM_DEVICE std::uint32_t cluster_ctaid_x() { std::uint32_t r; asm("mov.u32 %0, %%cluster_ctaid.x;\n" : "=r"(r)); return r; }
CTM_DEVICE std::uint32_t cluster_ctaid_y() { std::uint32_t r; asm("mov.u32 %0, %%cluster_ctaid.y;\n" : "=r"(r)); return r; }
CTM_DEVICE std::uint32_t cluster_ctaid_z() { std::uint32_t r; asm("mov.u32 %0, %%cluster_ctaid.z;\n" : "=r"(r)); return r; }
/// %cluster_nctaid.{x,y,z}: the cluster's extent in CTAs.
CTM_DEVICE std::uint32_t cluster_nctaid_x() { std::uint32_t r; asm("mov.u32 %0, %%cluster_nctaid.x;\n" : "=r"(r)); return r; }
CTM_DEVICE std::uint32_t cluster_nctaid_y() { std::uint32_t r; asm("mov.u32 %0, %%cluster_nctaid.y;\n" : "=r"(r)); return r; }
CTM_DEVICE std::uint32_t cluster_nctaid_z() { std::uint32_t r; asm("mov.u32 %0, %%cluster_nctaid.z;\n" : "=r"(r)); return r; }
/// %cluster_ctarank: this CTA's linear rank in its cluster, 0..cluster_nctarank()-1.
CTM_DEVICE std::uint32_t cluster_ctarank() { std::uint32_t r; asm("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r)); return r; }
/// %cluster_nctarank: the number of CTAs in the cluster.
CTM_DEVICE std::uint32_t cluster_nctarank() { std::uint32_t r; asm("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(r)); return r; }
/// %is_explicit_cluster: whether the launch named a cluster shape.
CTM_DEVICE bool is_explicit_cluster() {
  std::uint32_t r;
  asm("{\n.reg .pred p;\nmov.pred p, %%is_explicit_cluster;\nselp.u32 %0, 1, 0, p;\n}\n" : "=r"(r));
  return r != 0;
}

// ---- clocks ----

/// %clock: the SM's 32-bit cycle counter.
CTM_DEVICE std::uint32_t clock() { std::uint32_t r; asm volatile("mov.u32 %0, %%clock;\n" : "=r"(r)); return r; }
/// %clock64: the SM's 64-bit cycle counter.
CTM_DEVICE std::uint64_t clock64() { std::uint64_t r; asm volatile("mov.u64 %0, %%clock64;\n" : "=l"(r)); return r; }
/// %globaltimer: a global nanosecond timer (updated every ~µs on most GPUs).
CTM_DEVICE std::uint64_t globaltimer() { std::uint64_t r; asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(r)); return r; }

}  // namespace ctm
#endif
