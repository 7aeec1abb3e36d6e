// cute_cpp::arch forwarders compile on every target (packed f32x2 falls back on sm_90a).
// cute-cpp-archs: 90a 100a 120a
#include <cute_cpp/arch.hpp>

namespace arch = cute_cpp::arch;

__global__ void __launch_bounds__(256, 1) forwarders(float* out, std::uint32_t* uout) {
  __shared__ alignas(8) std::uint64_t bar;
  if (arch::warp_idx() == 0 && arch::elect_one_sync()) {
    arch::mbarrier_init(&bar, 1);
    arch::mbarrier_init_fence();
  }
  arch::sync_threads();
  arch::cluster_arrive_relaxed();
  arch::cluster_wait();
  arch::mbarrier_arrive_and_expect_tx(&bar, 0);
  arch::mbarrier_expect_tx(&bar, 0);
  arch::mbarrier_arrive(&bar, arch::block_rank_in_cluster());
  arch::mbarrier_arrive_and_expect_tx(&bar, 0, 0);
  arch::mbarrier_wait(&bar, 0);
  uout[0] = arch::mbarrier_try_wait(&bar, 1) + arch::mbarrier_test_wait(&bar, 1);
  arch::barrier(1, 128);
  arch::barrier_arrive(2, 128);
  arch::barrier();
  arch::fence_view_async_shared();
  arch::fence_proxy<arch::ProxyKind::async>();
  arch::fence_proxy<arch::ProxyKind::async_global>();
  arch::fence_proxy<arch::ProxyKind::async_shared_cluster>();
  arch::fence_proxy<arch::ProxyKind::tensormap_generic_release>();
  arch::fence_acq_rel_cluster();
  arch::fence_sync_restrict<arch::Acquire>();
  arch::fence_sync_restrict<arch::Release>();
  uint3 t = arch::thread_idx(), b = arch::block_idx(), c = arch::cluster_idx(), bc = arch::block_in_cluster_idx();
  dim3 bd = arch::block_dim(), gd = arch::grid_dim(), cd = arch::cluster_dim(), bcd = arch::block_in_cluster_dim();
  uout[1] = t.x + b.y + c.z + bc.x + bd.x + gd.y + cd.z + bcd.x + arch::lane_idx() + arch::cluster_size();
  float2 p = arch::fma_packed_f32x2(make_float2(out[0], out[1]), make_float2(2.f, 3.f), make_float2(1.f, 1.f));
  p = arch::add_packed_f32x2(p, arch::mul_packed_f32x2(p, p));
  out[2] = arch::warp_reduction_max_f32(p.x) + arch::warp_reduction_sum_f32(p.y);
  uout[2] = arch::cvt_f16x2_f32(p.x, p.y);
  arch::sync_warp();
  arch::griddepcontrol_wait();
  arch::griddepcontrol_launch_dependents();
  if (arch::warp_idx() < 4) arch::setmaxregister_decrease<40>();
  else arch::setmaxregister_increase<232>();
  std::uint32_t u = arch::make_warp_uniform(arch::lane_idx());
  u += arch::shuffle_sync(u, 1) + arch::shuffle_sync_up(u, 1) + arch::shuffle_sync_down(u, 1) + arch::shuffle_sync_bfly(u, 1);
  float f = arch::shuffle_sync(out[3], 2) + arch::shuffle_sync_bfly(out[4], 4, 0xffffffffu) +
            arch::shuffle_sync_up(1.0f, 1) + arch::shuffle_sync_down(2.0f, 1);
  u += arch::vote_ballot_sync(f > 0.f) + arch::vote_any_sync(u > 3) + arch::vote_all_sync(u < 100) + arch::popc(u);
  out[5] = arch::exp2(f) + arch::rcp_approx(f) + arch::fmax(f, 1.0f);
  uout[3] = u + arch::block_idx_in_cluster();
  arch::fence_acq_rel_cta();
  arch::fence_acq_rel_gpu();
  arch::fence_acq_rel_sys();
  arch::cp_async_commit_group();
  arch::cp_async_wait_group<0>();
  arch::cp_async_bulk_commit_group();
  arch::cp_async_bulk_prefetch_l2(out, 256);
  arch::cp_async_bulk_wait_group<0>();
  arch::cp_async_bulk_wait_group<1, true>();
  if (arch::warp_idx() < 4) arch::warpgroup_reg_dealloc<40>();
  else arch::warpgroup_reg_alloc<232>();
  arch::cluster_sync();
}
