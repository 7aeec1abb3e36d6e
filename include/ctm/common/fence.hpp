// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Memory fences: proxy fences between the generic and async proxies, the mbarrier-init fence,
// acquire/release and sequentially consistent fences at CTA, cluster and GPU scope, the
// sync_restrict fences, and the tensormap proxy fences. CuTeDSL: cute.arch.fence_proxy,
// fence_view_async_shared, fence_acq_rel_cluster, fence_sync_restrict-style fences.
// Targets: sm_90a, sm_100a, sm_120a.
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

// ---- compiler ordering ----

/// No instruction: an empty asm that "writes" v, so the compiler must take v as computed here.
/// Values derived from it after this point are computed after it, not hoisted out of the loop
/// around it and kept live (or spilled) through the loop.
CTM_DEVICE std::uint32_t opaque_u32(std::uint32_t v) {
  asm volatile("" : "+r"(v));
  return v;
}

// ---- proxy fences ----

/// fence.proxy.async.shared::cta: makes this thread's generic-proxy writes to shared memory
/// visible to the async proxy (TMA stores, wgmma/tcgen05 operand reads), and the reverse.
CTM_DEVICE void fence_proxy_async_shared_cta() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
/// fence.proxy.async.shared::cluster.
CTM_DEVICE void fence_proxy_async_shared_cluster() {
  asm volatile("fence.proxy.async.shared::cluster;\n" ::: "memory");
}
/// fence.proxy.async.global: generic-proxy global writes ordered with async-proxy accesses.
CTM_DEVICE void fence_proxy_async_global() {
  asm volatile("fence.proxy.async.global;\n" ::: "memory");
}
/// fence.proxy.async: all state spaces.
CTM_DEVICE void fence_proxy_async() { asm volatile("fence.proxy.async;\n" ::: "memory"); }

/// fence.proxy.tensormap::generic.release.gpu: before a tensor map modified in global memory
/// is used by other threads' TMA operations.
CTM_DEVICE void fence_proxy_tensormap_generic_release_gpu() {
  asm volatile("fence.proxy.tensormap::generic.release.gpu;\n" ::: "memory");
}
/// fence.proxy.tensormap::generic.acquire.gpu [tmap], 128: before using a tensor map that
/// another thread modified in global memory.
CTM_DEVICE void fence_proxy_tensormap_generic_acquire_gpu(void const* tmap) {
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;\n" ::"l"(tmap) : "memory");
}

// ---- mbarrier init ----

/// fence.mbarrier_init.release.cluster: makes mbarrier_init visible to the other CTAs of the
/// cluster and to the async proxy (once, after the inits, before the cluster sync).
CTM_DEVICE void fence_mbarrier_init_release_cluster() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// ---- ordering fences ----

/// fence.acq_rel.cta (the same as __threadfence_block's ordering).
CTM_DEVICE void fence_acq_rel_cta() { asm volatile("fence.acq_rel.cta;\n" ::: "memory"); }
/// fence.acq_rel.cluster.
CTM_DEVICE void fence_acq_rel_cluster() { asm volatile("fence.acq_rel.cluster;\n" ::: "memory"); }
/// fence.acq_rel.gpu.
CTM_DEVICE void fence_acq_rel_gpu() { asm volatile("fence.acq_rel.gpu;\n" ::: "memory"); }
/// fence.acq_rel.sys.
CTM_DEVICE void fence_acq_rel_sys() { asm volatile("fence.acq_rel.sys;\n" ::: "memory"); }
/// fence.sc.cta.
CTM_DEVICE void fence_sc_cta() { asm volatile("fence.sc.cta;\n" ::: "memory"); }
/// fence.sc.cluster.
CTM_DEVICE void fence_sc_cluster() { asm volatile("fence.sc.cluster;\n" ::: "memory"); }
/// fence.sc.gpu.
CTM_DEVICE void fence_sc_gpu() { asm volatile("fence.sc.gpu;\n" ::: "memory"); }
/// fence.acquire.cluster: a lightweight acquire-only fence.
CTM_DEVICE void fence_acquire_cluster() { asm volatile("fence.acquire.cluster;\n" ::: "memory"); }
/// fence.release.cluster: a lightweight release-only fence.
CTM_DEVICE void fence_release_cluster() { asm volatile("fence.release.cluster;\n" ::: "memory"); }

/// fence.acquire.sync_restrict::shared::cluster.cluster: acquire restricted to shared::cluster
/// (pairs with mbarrier arrivals made with release.cluster).
CTM_DEVICE void fence_acquire_sync_restrict_shared_cluster_cluster() {
  asm volatile("fence.acquire.sync_restrict::shared::cluster.cluster;\n" ::: "memory");
}
/// fence.release.sync_restrict::shared::cta.cluster: release restricted to shared::cta.
CTM_DEVICE void fence_release_sync_restrict_shared_cta_cluster() {
  asm volatile("fence.release.sync_restrict::shared::cta.cluster;\n" ::: "memory");
}

}  // namespace ctm
#endif
