// The common primitives become their hardware instructions on sm_90a and sm_100a: TMA load/store/reduce
// (UTMALDG/UTMASTG/UTMAREDG), bulk copy (UBLKCP), mbarrier (SYNCS), elect (ELECT), cluster
// barrier (UCGABAR), ldmatrix/stmatrix (LDSM/STSM), setmaxnreg (USETMAXREG), mma.sync (HMMA),
// the async-proxy fence (FENCE.VIEW.ASYNC.S). fp8 mma.sync is native (QMMA) only on sm_120a;
// on sm_90a and sm_100a ptxas lowers it to conversions and HMMA. TMA multicast is
// a hardware form here.
// cute-cpp-archs: 90a 100a
// expect-sass: {{"UTMALDG\.2D"}}
// expect-sass: {{"UTMALDG\.2D\.MULTICAST"}}
// expect-sass: {{"UTMASTG\.2D"}}
// expect-sass: {{"UTMAREDG\.2D\.ADD"}}
// expect-sass: {{"UBLKCP\.S\.G"}}
// expect-sass: {{"SYNCS\.ARRIVE\.TRANS64"}}
// expect-sass: {{"SYNCS\.PHASECHK\.TRANS64"}}
// expect-sass: {{"ELECT"}}
// expect-sass: {{"UCGABAR_ARV"}}
// expect-sass: {{"LDSM\.16\.M88\.4"}}
// expect-sass: {{"STSM\.16\.MT88\.4"}}
// expect-sass: {{"USETMAXREG"}}
// expect-sass: {{"HMMA\.16816\.F32\.BF16"}}
// expect-sass: {{"FENCE\.VIEW\.ASYNC\.S"}}
// reject-sass: {{"QMMA"}}
#include <ctm/ctm.hpp>

__global__ void __launch_bounds__(256, 1) primitives(void const* tmap, float const* src, std::uint32_t* out) {
  __shared__ alignas(1024) std::uint16_t tile[64 * 64];
  __shared__ alignas(8) std::uint64_t bar;
  if (ctm::elect_sync()) {
    ctm::mbarrier_init(&bar, 1);
    ctm::fence_mbarrier_init_release_cluster();
  }
  ctm::barrier_cluster_arrive_relaxed_aligned();
  ctm::barrier_cluster_wait_aligned();
  (void)ctm::mbarrier_arrive_expect_tx(&bar, 8192);
  ctm::cp_async_bulk_tensor_2d_shared_cta_global(tile, tmap, 0, 0, &bar);
  ctm::cp_async_bulk_tensor_2d_shared_cluster_global_multicast_cluster(tile, tmap, 0, 64, &bar, 0x3);
  ctm::cp_async_bulk_shared_cta_global(tile, src, 256, &bar);
  ctm::mbarrier_wait_parity(&bar, 0);
  std::uint32_t r[4];
  ctm::ldmatrix_x4(r[0], r[1], r[2], r[3], &tile[(threadIdx.x % 32) * 64]);
  std::uint32_t b[2] = {r[2], r[3]};
  float c[4] = {0.f, 0.f, 0.f, 0.f}, d[4];
  ctm::mma_m16n8k16_row_col_f32_bf16_bf16_f32(d, r, b, c);
  std::uint32_t const a8[4] = {r[0], r[1], r[2], r[3]};
  float d8[4];
  ctm::mma_m16n8k32_row_col_f32_e4m3_e4m3_f32(d8, a8, b, d);
  ctm::stmatrix_x4_trans(&tile[(threadIdx.x % 32) * 64], ctm::cvt_rn_bf16x2_f32(d8[0], d8[1]),
                         ctm::cvt_rn_bf16x2_f32(d8[2], d8[3]), r[0], r[1]);
  ctm::fence_proxy_async_shared_cta();
  ctm::bar_sync(1, 256);
  if (threadIdx.x == 0) {
    ctm::cp_async_bulk_tensor_2d_global_shared_cta(tmap, 0, 0, tile);
    ctm::cp_reduce_async_bulk_tensor_2d_global_shared_cta_add(tmap, 0, 64, tile);
    ctm::cp_async_bulk_commit_group();
    ctm::cp_async_bulk_wait_group_read<0>();
  }
  if (threadIdx.x < 128) ctm::setmaxnreg_dec<40>();
  else ctm::setmaxnreg_inc<232>();
  out[threadIdx.x] = r[0];
}
