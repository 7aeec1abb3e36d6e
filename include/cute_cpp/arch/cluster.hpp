// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch cluster queries and barriers: cluster_arrive, cluster_arrive_relaxed, cluster_wait,
// cluster_sync, cluster_idx, cluster_dim, block_in_cluster_idx, block_in_cluster_dim,
// block_rank_in_cluster; distributed shared memory: mapa_shared_cluster, store_shared_remote.
#include <cstdint>
#include <ctm/common/cluster.hpp>  // barrier_cluster_*
#include <ctm/common/sreg.hpp>     // %clusterid, %nclusterid, %cluster_ctaid, %cluster_nctaid, ...

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// barrier.cluster.arrive.aligned (release): every thread of the cluster's CTAs arrives.
__device__ __forceinline__ void cluster_arrive() { ctm::barrier_cluster_arrive_aligned(); }
/// barrier.cluster.arrive.relaxed.aligned: arrive without release ordering.
__device__ __forceinline__ void cluster_arrive_relaxed() { ctm::barrier_cluster_arrive_relaxed_aligned(); }
/// barrier.cluster.wait.aligned (acquire).
__device__ __forceinline__ void cluster_wait() { ctm::barrier_cluster_wait_aligned(); }
/// cluster_arrive then cluster_wait.
__device__ __forceinline__ void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}

/// %clusterid: this cluster's (x, y, z) in the grid of clusters.
__device__ __forceinline__ uint3 cluster_idx() {
  return make_uint3(ctm::clusterid_x(), ctm::clusterid_y(), ctm::clusterid_z());
}
/// %nclusterid: the grid's extent in clusters.
__device__ __forceinline__ dim3 cluster_dim() {
  return dim3(ctm::nclusterid_x(), ctm::nclusterid_y(), ctm::nclusterid_z());
}
/// %cluster_ctaid: this block's (x, y, z) in its cluster.
__device__ __forceinline__ uint3 block_in_cluster_idx() {
  return make_uint3(ctm::cluster_ctaid_x(), ctm::cluster_ctaid_y(), ctm::cluster_ctaid_z());
}
/// %cluster_nctaid: the cluster's shape in blocks.
__device__ __forceinline__ dim3 block_in_cluster_dim() {
  return dim3(ctm::cluster_nctaid_x(), ctm::cluster_nctaid_y(), ctm::cluster_nctaid_z());
}
/// %cluster_ctarank: this block's linear rank in its cluster.
__device__ __forceinline__ std::uint32_t block_rank_in_cluster() { return ctm::cluster_ctarank(); }
/// The same rank under CuTeDSL's other name.
__device__ __forceinline__ std::uint32_t block_idx_in_cluster() { return ctm::cluster_ctarank(); }
/// %cluster_nctarank: the number of blocks in the cluster.
__device__ __forceinline__ std::uint32_t cluster_size() { return ctm::cluster_nctarank(); }

// ---- distributed shared memory ----

/// mapa.shared::cluster: the shared::cluster address of the variable at `smem_ptr` (this
/// block's shared memory) in the block of rank `peer_cta_rank_in_cluster`.
__device__ __forceinline__ std::uint32_t mapa_shared_cluster(void const* smem_ptr,
                                                             std::uint32_t peer_cta_rank_in_cluster) {
  return ctm::mapa_shared_cluster_u32(smem_ptr, peer_cta_rank_in_cluster);
}

/// mapa.u64: the generic address of the variable at `smem_ptr` (this block's shared memory) in the
/// block of rank `peer_cta_rank_in_cluster`; ordinary loads and stores through it reach that block.
template <class T>
__device__ __forceinline__ T* map_to_block_in_cluster(T* smem_ptr, std::uint32_t peer_cta_rank_in_cluster) {
  return ctm::mapa_u64(smem_ptr, peer_cta_rank_in_cluster);
}

/// st.async.shared::cluster.mbarrier::complete_tx::bytes.b32: stores v into the variable at
/// `smem_ptr`'s offset in block `peer_cta_rank_in_cluster`, and completes 4 transaction bytes on
/// that block's barrier at `mbar`'s offset (which expects them with mbarrier_arrive_and_expect_tx).
/// No fence: the peer's mbarrier wait is what orders the store before the peer's reads.
__device__ __forceinline__ void store_shared_remote(float v, float* smem_ptr, std::uint64_t* mbar,
                                                    std::uint32_t peer_cta_rank_in_cluster) {
  ctm::st_async_shared_cluster_mbarrier_complete_tx_bytes_b32(
      mapa_shared_cluster(smem_ptr, peer_cta_rank_in_cluster), __float_as_uint(v),
      mapa_shared_cluster(mbar, peer_cta_rank_in_cluster));
}
__device__ __forceinline__ void store_shared_remote(std::uint32_t v, std::uint32_t* smem_ptr, std::uint64_t* mbar,
                                                    std::uint32_t peer_cta_rank_in_cluster) {
  ctm::st_async_shared_cluster_mbarrier_complete_tx_bytes_b32(mapa_shared_cluster(smem_ptr, peer_cta_rank_in_cluster),
                                                              v, mapa_shared_cluster(mbar, peer_cta_rank_in_cluster));
}

}  // namespace cute_cpp::arch
#endif
