// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch fences: fence_view_async_shared, fence_proxy<ProxyKind>, fence_acq_rel_{cta,cluster,gpu,sys},
// fence_sync_restrict<Acquire|Release>. CuTeDSL's fence_proxy takes strings (kind, space); here
// the proxy is a template argument (docs/deviations.md).
#include <type_traits>
#include <ctm/common/fence.hpp>  // the fence instructions

namespace cute_cpp::arch {

/// The proxy fences fence_proxy<K>() issues.
enum class ProxyKind {
  async,                     ///< fence.proxy.async (all state spaces)
  async_global,              ///< fence.proxy.async.global
  async_shared_cta,          ///< fence.proxy.async.shared::cta
  async_shared_cluster,      ///< fence.proxy.async.shared::cluster
  tensormap_generic_release  ///< fence.proxy.tensormap::generic.release.gpu
};

/// Semantics tags for fence_sync_restrict.
struct Acquire {};
struct Release {};

#if defined(__CUDACC__)
/// fence.proxy.async.shared::cta: this thread's shared-memory writes become visible to the async
/// proxy (TMA store, wgmma operands), e.g. between writing a tile and a TMA store of it.
__device__ __forceinline__ void fence_view_async_shared() { ctm::fence_proxy_async_shared_cta(); }

/// The proxy fence of kind K.
template <ProxyKind K>
__device__ __forceinline__ void fence_proxy() {
  if constexpr (K == ProxyKind::async) ctm::fence_proxy_async();
  else if constexpr (K == ProxyKind::async_global) ctm::fence_proxy_async_global();
  else if constexpr (K == ProxyKind::async_shared_cta) ctm::fence_proxy_async_shared_cta();
  else if constexpr (K == ProxyKind::async_shared_cluster) ctm::fence_proxy_async_shared_cluster();
  else ctm::fence_proxy_tensormap_generic_release_gpu();
}

/// fence.acq_rel at CTA, cluster, GPU and system scope.
__device__ __forceinline__ void fence_acq_rel_cta() { ctm::fence_acq_rel_cta(); }
__device__ __forceinline__ void fence_acq_rel_cluster() { ctm::fence_acq_rel_cluster(); }
__device__ __forceinline__ void fence_acq_rel_gpu() { ctm::fence_acq_rel_gpu(); }
__device__ __forceinline__ void fence_acq_rel_sys() { ctm::fence_acq_rel_sys(); }

/// fence.acquire.sync_restrict::shared::cluster.cluster (Acquire) or
/// fence.release.sync_restrict::shared::cta.cluster (Release).
template <class Semantics>
__device__ __forceinline__ void fence_sync_restrict() {
  static_assert(std::is_same_v<Semantics, Acquire> || std::is_same_v<Semantics, Release>,
                "cute-cpp [arch.fence-sync-restrict]: fence_sync_restrict takes cute_cpp::arch::Acquire or Release");
  if constexpr (std::is_same_v<Semantics, Acquire>) ctm::fence_acquire_sync_restrict_shared_cluster_cluster();
  else ctm::fence_release_sync_restrict_shared_cta_cluster();
}
#endif

}  // namespace cute_cpp::arch
