// The synchronisation families compile and assemble on every target: mbarrier (local and
// cluster-remote), fences, elect.sync, named barriers, cluster barriers, mapa and DSMEM,
// special registers and clocks, griddepcontrol, setmaxnreg.
// cute-cpp-archs: 90a 100a 120a
#include <ctm/common/bar.hpp>
#include <ctm/common/cluster.hpp>
#include <ctm/common/elect.hpp>
#include <ctm/common/fence.hpp>
#include <ctm/common/griddepcontrol.hpp>
#include <ctm/common/mbarrier.hpp>
#include <ctm/common/setmaxnreg.hpp>
#include <ctm/common/sreg.hpp>
#include <ctm/common/ld_st.hpp>
#include <ctm/common/tensormap.hpp>

__global__ void mbarrier_kernel(std::uint32_t* out) {
  __shared__ alignas(8) std::uint64_t bar[2];
  ctm::mbarrier_init(bar, 1);
  ctm::mbarrier_init(bar + 1, 32);
  ctm::fence_mbarrier_init_release_cluster();
  std::uint64_t s0 = ctm::mbarrier_arrive_expect_tx(bar, 128);
  ctm::mbarrier_expect_tx(bar, 16);
  std::uint64_t s1 = ctm::mbarrier_arrive(bar + 1);
  std::uint64_t s2 = ctm::mbarrier_arrive(bar + 1, 2);
  out[0] = ctm::mbarrier_try_wait_parity(bar, 0) + ctm::mbarrier_try_wait_parity(bar, 1, 1000) +
           ctm::mbarrier_test_wait_parity(bar, 1) + ctm::mbarrier_try_wait(bar + 1, s1) +
           ctm::mbarrier_test_wait(bar + 1, s2) + ctm::mbarrier_try_wait_parity_acquire_cluster(bar, 0) +
           static_cast<std::uint32_t>(s0);
  ctm::mbarrier_wait_parity(bar, 0);
  std::uint32_t remote = ctm::mapa_shared_cluster_u32(bar, 1);
  ctm::mbarrier_arrive_release_cluster_shared_cluster(remote);
  ctm::mbarrier_arrive_release_cluster_shared_cluster(remote, 2);
  ctm::mbarrier_arrive_expect_tx_release_cluster_shared_cluster(remote, 64);
  ctm::mbarrier_expect_tx_relaxed_cluster_shared_cluster(remote, 64);
  ctm::mbarrier_inval(bar);
}

__global__ void fence_kernel() {
  ctm::fence_proxy_async_shared_cta();
  ctm::fence_proxy_async_shared_cluster();
  ctm::fence_proxy_async_global();
  ctm::fence_proxy_async();
  ctm::fence_proxy_tensormap_generic_release_gpu();
  ctm::fence_acq_rel_cta();
  ctm::fence_acq_rel_cluster();
  ctm::fence_acq_rel_gpu();
  ctm::fence_acq_rel_sys();
  ctm::fence_sc_cta();
  ctm::fence_sc_cluster();
  ctm::fence_sc_gpu();
  ctm::fence_acquire_cluster();
  ctm::fence_release_cluster();
  ctm::fence_acquire_sync_restrict_shared_cluster_cluster();
  ctm::fence_release_sync_restrict_shared_cta_cluster();
}

__global__ void tensormap_fence_kernel(void const* tmap) { ctm::fence_proxy_tensormap_generic_acquire_gpu(tmap); }

__global__ void barrier_kernel(std::uint32_t* out) {
  out[0] = ctm::elect_sync() ? 1u : ctm::elect_sync_lane(0x0000ffffu);
  ctm::bar_sync(0);
  ctm::bar_sync(1, 128);
  ctm::bar_arrive(2, 64);
  ctm::bar_warp_sync();
  ctm::barrier_cluster_arrive();
  ctm::barrier_cluster_wait();
  ctm::barrier_cluster_arrive_aligned();
  ctm::barrier_cluster_wait_aligned();
  ctm::barrier_cluster_arrive_relaxed();
  ctm::barrier_cluster_arrive_relaxed_aligned();
  ctm::barrier_cluster_wait();
}

__global__ void cluster_kernel(std::uint64_t* out) {
  __shared__ float cell[4];
  std::uint32_t peer = ctm::mapa_shared_cluster_u32(&cell[0], ctm::cluster_ctarank() ^ 1u);
  ctm::st_shared_cluster_f32(peer, 1.0f);
  ctm::st_shared_cluster_u32(peer + 4, 2u);
  ctm::st_shared_cluster_u64(peer + 8, 3u);
  float* generic_peer = ctm::mapa_u64(&cell[0], 0);
  out[0] = ctm::ld_shared_cluster_u32(peer) + ctm::ld_shared_cluster_u64(peer + 8) +
           static_cast<std::uint64_t>(ctm::ld_shared_cluster_f32(peer)) +
           static_cast<std::uint64_t>(generic_peer[1]);
  out[1] = ctm::clusterid_x() + ctm::clusterid_y() + ctm::clusterid_z() + ctm::nclusterid_x() +
           ctm::nclusterid_y() + ctm::nclusterid_z() + ctm::cluster_ctaid_x() + ctm::cluster_ctaid_y() +
           ctm::cluster_ctaid_z() + ctm::cluster_nctaid_x() + ctm::cluster_nctaid_y() +
           ctm::cluster_nctaid_z() + ctm::cluster_nctarank() + ctm::is_explicit_cluster();
  out[2] = ctm::laneid() + ctm::warpid() + ctm::smid() + ctm::clock() + ctm::clock64() + ctm::globaltimer();
}

__global__ void async_remote_kernel(std::uint32_t* out) {
  __shared__ alignas(16) std::uint32_t cell[4];
  __shared__ alignas(8) std::uint64_t bar;
  std::uint32_t peer = ctm::mapa_shared_cluster_u32(&cell[0], 1);
  std::uint32_t peer_bar = ctm::mapa_shared_cluster_u32(&bar, 1);
  ctm::st_async_shared_cluster_mbarrier_complete_tx_bytes_b32(peer, 1u, peer_bar);
  ctm::st_async_shared_cluster_mbarrier_complete_tx_bytes_b64(peer + 8, 2u, peer_bar);
  ctm::st_async_shared_cluster_mbarrier_complete_tx_bytes_v4_b32(peer, 1u, 2u, 3u, 4u, peer_bar);
  ctm::red_async_relaxed_cluster_shared_cluster_mbarrier_complete_tx_bytes_add_u32(peer, 5u, peer_bar);
  out[0] = ctm::getctarank_shared_cluster_u32(peer) + ctm::ld_acquire_cluster_shared_cluster_b32(peer);
}

__global__ void tensormap_kernel(void* gmem_tmap, void const* new_base) {
  __shared__ alignas(128) std::uint8_t tmap[128];
  ctm::tensormap_replace_tile_global_address_shared_cta(tmap, new_base);
  ctm::tensormap_replace_tile_global_dim_shared_cta<1>(tmap, 4096u);
  ctm::tensormap_replace_tile_global_stride_shared_cta<0>(tmap, 8192u);
  ctm::tensormap_replace_tile_box_dim_shared_cta<0>(tmap, 64u);
  ctm::tensormap_cp_fenceproxy_global_shared_cta_tensormap_generic_release_gpu(gmem_tmap, tmap);
  ctm::tensormap_replace_tile_global_address_global(gmem_tmap, new_base);
  ctm::tensormap_replace_tile_global_dim_global<4>(gmem_tmap, 2u);
  ctm::tensormap_replace_tile_global_stride_global<3>(gmem_tmap, 1u << 20);
  ctm::fence_proxy_tensormap_generic_acquire_gpu(gmem_tmap);
}

__global__ void pdl_kernel() {
  ctm::griddepcontrol_wait();
  ctm::griddepcontrol_launch_dependents();
}

__global__ void __launch_bounds__(384, 1) setmaxnreg_kernel() {
  if (threadIdx.x < 128) {
    ctm::setmaxnreg_dec<40>();
  } else {
    ctm::setmaxnreg_inc<232>();
  }
}
