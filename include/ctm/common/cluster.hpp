// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Clusters: barrier.cluster arrive/wait (with release/relaxed/acquire and .aligned forms),
// mapa (a CTA-local shared address to the same offset in another CTA of the cluster), and
// distributed shared memory loads and stores through shared::cluster addresses, st.async /
// red.async with mbarrier completion, getctarank.
// CuTeDSL: cute.arch.cluster_arrive, cluster_arrive_relaxed, cluster_wait, mapa-based DSMEM.
// Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE, cvta_to_shared_u32

#if defined(__CUDACC__)
namespace ctm {

// ---- barrier.cluster ----

/// barrier.cluster.arrive (release semantics by default); every thread of every CTA arrives.
CTM_DEVICE void barrier_cluster_arrive() { asm volatile("barrier.cluster.arrive;\n" ::: "memory"); }
/// barrier.cluster.arrive.aligned: all threads of the warp execute it together.
CTM_DEVICE void barrier_cluster_arrive_aligned() {
  asm volatile("barrier.cluster.arrive.aligned;\n" ::: "memory");
}
/// barrier.cluster.arrive.relaxed: no release ordering (pair with an explicit fence).
CTM_DEVICE void barrier_cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed;\n" ::: "memory");
}
/// barrier.cluster.arrive.relaxed.aligned.
CTM_DEVICE void barrier_cluster_arrive_relaxed_aligned() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
}
/// barrier.cluster.wait (acquire semantics by default).
CTM_DEVICE void barrier_cluster_wait() { asm volatile("barrier.cluster.wait;\n" ::: "memory"); }
/// barrier.cluster.wait.aligned.
CTM_DEVICE void barrier_cluster_wait_aligned() {
  asm volatile("barrier.cluster.wait.aligned;\n" ::: "memory");
}

// ---- mapa ----

/// mapa.shared::cluster.u32 d, a, rank: the shared::cluster address of the variable at
/// shared::cta address `smem_addr` in the CTA of rank `cta_rank` in this cluster.
CTM_DEVICE std::uint32_t mapa_shared_cluster_u32(std::uint32_t smem_addr, std::uint32_t cta_rank) {
  std::uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(smem_addr), "r"(cta_rank));
  return r;
}

/// mapa.shared::cluster.u32 for a generic pointer into this CTA's shared memory.
CTM_DEVICE std::uint32_t mapa_shared_cluster_u32(void const* smem_ptr, std::uint32_t cta_rank) {
  return mapa_shared_cluster_u32(cvta_to_shared_u32(smem_ptr), cta_rank);
}

/// mapa.u64 d, a, rank: the generic address of the same shared variable in CTA `cta_rank`;
/// ordinary loads and stores through it reach that CTA's shared memory.
template <class T>
CTM_DEVICE T* mapa_u64(T* smem_ptr, std::uint32_t cta_rank) {
  std::uint64_t r;
  asm volatile("mapa.u64 %0, %1, %2;\n"
               : "=l"(r)
               : "l"(reinterpret_cast<std::uint64_t>(smem_ptr)), "r"(cta_rank));
  return reinterpret_cast<T*>(r);
}

// ---- distributed shared memory ----

/// ld.shared::cluster.u32 d, [addr]: a load from a shared::cluster address (from mapa).
CTM_DEVICE std::uint32_t ld_shared_cluster_u32(std::uint32_t cluster_addr) {
  std::uint32_t r;
  asm volatile("ld.shared::cluster.u32 %0, [%1];\n" : "=r"(r) : "r"(cluster_addr) : "memory");
  return r;
}
/// ld.shared::cluster.u64.
CTM_DEVICE std::uint64_t ld_shared_cluster_u64(std::uint32_t cluster_addr) {
  std::uint64_t r;
  asm volatile("ld.shared::cluster.u64 %0, [%1];\n" : "=l"(r) : "r"(cluster_addr) : "memory");
  return r;
}
/// ld.shared::cluster.f32.
CTM_DEVICE float ld_shared_cluster_f32(std::uint32_t cluster_addr) {
  float r;
  asm volatile("ld.shared::cluster.f32 %0, [%1];\n" : "=f"(r) : "r"(cluster_addr) : "memory");
  return r;
}
/// st.shared::cluster.u32 [addr], v.
CTM_DEVICE void st_shared_cluster_u32(std::uint32_t cluster_addr, std::uint32_t v) {
  asm volatile("st.shared::cluster.u32 [%0], %1;\n" ::"r"(cluster_addr), "r"(v) : "memory");
}
/// st.shared::cluster.u64 [addr], v.
CTM_DEVICE void st_shared_cluster_u64(std::uint32_t cluster_addr, std::uint64_t v) {
  asm volatile("st.shared::cluster.u64 [%0], %1;\n" ::"r"(cluster_addr), "l"(v) : "memory");
}
/// st.shared::cluster.f32 [addr], v.
CTM_DEVICE void st_shared_cluster_f32(std::uint32_t cluster_addr, float v) {
  asm volatile("st.shared::cluster.f32 [%0], %1;\n" ::"r"(cluster_addr), "f"(v) : "memory");
}

// ---- asynchronous remote stores ----

/// st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [addr], v, [bar]: stores v in
/// another CTA's shared memory and signals 4 transaction bytes on that CTA's barrier `bar`
/// (both shared::cluster addresses of the same CTA, from mapa).
CTM_DEVICE void st_async_shared_cluster_mbarrier_complete_tx_bytes_b32(std::uint32_t cluster_addr, std::uint32_t v,
                                                                       std::uint32_t bar_cluster_addr) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];\n" ::"r"(cluster_addr),
               "r"(v), "r"(bar_cluster_addr)
               : "memory");
}
/// st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 (8 transaction bytes).
CTM_DEVICE void st_async_shared_cluster_mbarrier_complete_tx_bytes_b64(std::uint32_t cluster_addr, std::uint64_t v,
                                                                       std::uint32_t bar_cluster_addr) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];\n" ::"r"(cluster_addr),
               "l"(v), "r"(bar_cluster_addr)
               : "memory");
}
/// st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 (16 transaction bytes;
/// cluster_addr 16-byte aligned).
CTM_DEVICE void st_async_shared_cluster_mbarrier_complete_tx_bytes_v4_b32(std::uint32_t cluster_addr, std::uint32_t v0,
                                                                          std::uint32_t v1, std::uint32_t v2,
                                                                          std::uint32_t v3,
                                                                          std::uint32_t bar_cluster_addr) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];\n" ::"r"(
                   cluster_addr),
               "r"(v0), "r"(v1), "r"(v2), "r"(v3), "r"(bar_cluster_addr)
               : "memory");
}
/// red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [addr], v,
/// [bar]: an asynchronous remote add, signalled on the remote barrier.
CTM_DEVICE void red_async_relaxed_cluster_shared_cluster_mbarrier_complete_tx_bytes_add_u32(
    std::uint32_t cluster_addr, std::uint32_t v, std::uint32_t bar_cluster_addr) {
  asm volatile(
      "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];\n" ::"r"(
          cluster_addr),
      "r"(v), "r"(bar_cluster_addr)
      : "memory");
}

/// getctarank.shared::cluster.u32 d, addr: the rank of the CTA whose shared memory holds the
/// shared::cluster address `cluster_addr`.
CTM_DEVICE std::uint32_t getctarank_shared_cluster_u32(std::uint32_t cluster_addr) {
  std::uint32_t r;
  asm volatile("getctarank.shared::cluster.u32 %0, %1;\n" : "=r"(r) : "r"(cluster_addr));
  return r;
}

}  // namespace ctm
#endif
