// The copy families compile and assemble on every target: cp.async (4/8/16 B, zero-fill,
// groups, mbarrier arrive), bulk copies, TMA 1D-5D loads/stores/reductions/prefetches, bulk
// groups, tensormap prefetch, cache policies, ldmatrix and stmatrix.
// cute-cpp-archs: 90a 100a 120a
#include <ctm/common/cp_async.hpp>
#include <ctm/common/cp_async_bulk.hpp>
#include <ctm/common/cp_async_bulk_tensor.hpp>
#include <ctm/common/ldmatrix.hpp>
#include <ctm/common/stmatrix.hpp>

__global__ void cp_async_kernel(float const* src, std::uint32_t n) {
  __shared__ alignas(16) float buf[64];
  __shared__ alignas(8) std::uint64_t bar;
  ctm::cp_async_ca_shared_global<4>(&buf[0], src);
  ctm::cp_async_ca_shared_global<8>(&buf[2], src + 2);
  ctm::cp_async_ca_shared_global<16>(&buf[4], src + 4, n < 4 ? 0u : 16u);
  ctm::cp_async_cg_shared_global(&buf[8], src + 8);
  ctm::cp_async_cg_shared_global(&buf[12], src + 12, 8u);
  ctm::cp_async_commit_group();
  ctm::cp_async_wait_group<1>();
  ctm::cp_async_wait_all();
  ctm::cp_async_mbarrier_arrive(&bar);
  ctm::cp_async_mbarrier_arrive_noinc(&bar);
}

__global__ void bulk_kernel(float* dst, float const* src, std::uint32_t peer_buf, std::uint32_t peer_bar) {
  __shared__ alignas(128) float buf[256];
  __shared__ alignas(8) std::uint64_t bar;
  std::uint64_t policy = ctm::createpolicy_fractional_L2_evict_first() ^
                         ctm::createpolicy_fractional_L2_evict_last() ^
                         ctm::createpolicy_fractional_L2_evict_normal();
  ctm::cp_async_bulk_shared_cluster_global(buf, src, 1024, &bar);
  ctm::cp_async_bulk_shared_cta_global(buf, src, 1024, &bar);
  ctm::cp_async_bulk_shared_cluster_global_L2_cache_hint(buf, src, 1024, &bar, policy);
  ctm::cp_async_bulk_shared_cluster_global_multicast_cluster(buf, src, 1024, &bar, 0x3);
  ctm::cp_async_bulk_shared_cluster_shared_cta(peer_buf, buf, 512, peer_bar);
  ctm::cp_async_bulk_global_shared_cta(dst, buf, 1024);
  ctm::cp_async_bulk_global_shared_cta_L2_cache_hint(dst, buf, 1024, policy);
  ctm::cp_reduce_async_bulk_global_shared_cta_add_f32(dst, buf, 1024);
  ctm::cp_reduce_async_bulk_global_shared_cta_add_noftz_f16(dst, buf, 1024);
  ctm::cp_reduce_async_bulk_global_shared_cta_add_noftz_bf16(dst, buf, 1024);
  ctm::cp_reduce_async_bulk_global_shared_cta_add_u32(reinterpret_cast<std::uint32_t*>(dst),
                                                      reinterpret_cast<std::uint32_t const*>(buf), 1024);
  ctm::cp_reduce_async_bulk_global_shared_cta_min_s32(reinterpret_cast<std::int32_t*>(dst),
                                                      reinterpret_cast<std::int32_t const*>(buf), 1024);
  ctm::cp_reduce_async_bulk_global_shared_cta_max_s32(reinterpret_cast<std::int32_t*>(dst),
                                                      reinterpret_cast<std::int32_t const*>(buf), 1024);
  ctm::cp_async_bulk_commit_group();
  ctm::cp_async_bulk_wait_group<0>();
  ctm::cp_async_bulk_wait_group_read<1>();
  ctm::cp_async_bulk_prefetch_L2_global(src, 4096);
}

__global__ void tma_kernel(void const* tmap, int x, int y) {
  __shared__ alignas(1024) float buf[1024];
  __shared__ alignas(8) std::uint64_t bar;
  std::uint64_t policy = ctm::createpolicy_fractional_L2_evict_last();
  ctm::prefetch_tensormap(tmap);
  ctm::cp_async_bulk_tensor_1d_shared_cluster_global(buf, tmap, x, &bar);
  ctm::cp_async_bulk_tensor_2d_shared_cluster_global(buf, tmap, x, y, &bar);
  ctm::cp_async_bulk_tensor_1d_shared_cta_global(buf, tmap, x, &bar);
  ctm::cp_async_bulk_tensor_3d_shared_cta_global(buf, tmap, x, y, 0, &bar);
  ctm::cp_async_bulk_tensor_5d_shared_cta_global_L2_cache_hint(buf, tmap, x, y, 0, 0, 0, &bar, policy);
  ctm::cp_async_bulk_tensor_3d_shared_cluster_global_L2_cache_hint(buf, tmap, x, y, 1, &bar, policy);
  ctm::cp_async_bulk_tensor_4d_shared_cluster_global_multicast_cluster(buf, tmap, x, y, 1, 2, &bar, 0xf);
  ctm::cp_async_bulk_tensor_5d_shared_cluster_global_multicast_cluster_L2_cache_hint(buf, tmap, x, y, 1, 2, 3, &bar, 0x3, policy);
  ctm::cp_async_bulk_tensor_2d_global_shared_cta(tmap, x, y, buf);
  ctm::cp_async_bulk_tensor_5d_global_shared_cta_L2_cache_hint(tmap, x, y, 0, 0, 0, buf, policy);
  ctm::cp_reduce_async_bulk_tensor_2d_global_shared_cta_add(tmap, x, y, buf);
  ctm::cp_reduce_async_bulk_tensor_3d_global_shared_cta_max(tmap, x, y, 0, buf);
  ctm::cp_reduce_async_bulk_tensor_1d_global_shared_cta_xor(tmap, x, buf);
  ctm::cp_async_bulk_prefetch_tensor_4d_L2_global(tmap, x, y, 0, 0);
  ctm::cp_async_bulk_commit_group();
  ctm::cp_async_bulk_wait_group_read<0>();
}

__global__ void matrix_kernel(std::uint32_t* out) {
  __shared__ alignas(128) std::uint16_t tile[32 * 64];
  void* row = &tile[(threadIdx.x % 32) * 64];
  std::uint32_t r[4];
  ctm::ldmatrix_x1(r[0], row);
  ctm::ldmatrix_x2(r[0], r[1], row);
  ctm::ldmatrix_x4(r[0], r[1], r[2], r[3], row);
  ctm::ldmatrix_x1_trans(r[0], row);
  ctm::ldmatrix_x2_trans(r[0], r[1], row);
  ctm::ldmatrix_x4_trans(r[0], r[1], r[2], r[3], row);
  ctm::stmatrix_x1(row, r[0]);
  ctm::stmatrix_x2(row, r[0], r[1]);
  ctm::stmatrix_x4(row, r[0], r[1], r[2], r[3]);
  ctm::stmatrix_x1_trans(row, r[0]);
  ctm::stmatrix_x2_trans(row, r[0], r[1]);
  ctm::stmatrix_x4_trans(row, r[0], r[1], r[2], r[3]);
  out[threadIdx.x] = r[0] ^ r[1] ^ r[2] ^ r[3];
}
