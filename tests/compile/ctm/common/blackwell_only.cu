// The common-family instructions that exist on sm_100a (and sm_120a) but not sm_90a:
// redux.sync.{min,max}.f32 (sm_100a only), the packed f32x2 arithmetic, the 8-bit ldmatrix /
// stmatrix forms, and the FP4 / UE8M0 conversions (sm_100a, sm_120a); the cta_group::2 TMA loads
// (sm_100a).
// cute-cpp-archs: 100a 120a
#include <cute_cpp/arch/tmem.hpp>
#include <ctm/common/cluster.hpp>
#include <ctm/common/cp_async_bulk_tensor.hpp>
#include <ctm/common/cvt.hpp>
#include <ctm/common/sreg.hpp>
#include <ctm/common/f32x2.hpp>
#include <ctm/common/ldmatrix.hpp>
#include <ctm/common/stmatrix.hpp>
#include <ctm/common/shfl.hpp>

__global__ void f32x2_kernel(float2 const* in, float2* out) {
  float2 a = in[0], b = in[1], c = in[2];
  out[0] = ctm::fma_rn_f32x2(a, b, c);
  out[1] = ctm::add_rn_f32x2(a, b);
  out[2] = ctm::mul_rn_f32x2(a, b);
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  out[3].x = ctm::redux_sync_min_f32(a.x) + ctm::redux_sync_max_f32(a.y);
#endif
}

__global__ void matrix_b8_kernel(std::uint32_t* out) {
  __shared__ alignas(128) std::uint8_t tile[32 * 64];
  void* row = &tile[(threadIdx.x % 32) * 64];
  std::uint32_t r[4];
  ctm::ldmatrix_m16n16_x1_trans_b8(r[0], r[1], row);
  ctm::ldmatrix_m16n16_x2_trans_b8(r[0], r[1], r[2], r[3], row);
  std::uint32_t s[4];
  ctm::ldmatrix_m8n16_x4_b8x16_b6x16_p32(s[0], s[1], s[2], s[3], row);
  ctm::ldmatrix_m8n16_x4_b8x16_b4x16_p64(s[0], s[1], s[2], s[3], row);
  ctm::stmatrix_m16n8_x1_trans_b8(row, r[0]);
  ctm::stmatrix_m16n8_x2_trans_b8(row, r[0], r[1]);
  ctm::stmatrix_m16n8_x4_trans_b8(row, r[0], r[1], r[2], s[3]);
  out[threadIdx.x] = r[3] ^ s[0];
}

__global__ void fp4_kernel(float const* in, std::uint32_t* out) {
  std::uint8_t e2 = ctm::cvt_rn_satfinite_e2m1x2_f32(in[0], in[1]);
  std::uint16_t sc = ctm::cvt_rz_satfinite_ue8m0x2_f32(in[2], in[3]);
  out[0] = ctm::cvt_rn_f16x2_e2m1x2(e2) ^ ctm::cvt_rn_bf16x2_ue8m0x2(sc);
}

#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || !defined(__CUDA_ARCH__)
// The 2-CTA TMA loads (sm_100a only).
__global__ void tma_cta_group_2_kernel(void const* tmap, int x, int y) {
  __shared__ alignas(1024) std::uint8_t tile[8192];
  __shared__ alignas(8) std::uint64_t bar;
  std::uint32_t leader_bar = ctm::mapa_shared_cluster_u32(&bar, ctm::cluster_ctarank() & ~1u);
  ctm::cp_async_bulk_tensor_1d_shared_cluster_global_cta_group_2(tile, tmap, x, leader_bar);
  ctm::cp_async_bulk_tensor_2d_shared_cluster_global_multicast_cluster_cta_group_2(tile, tmap, x, y, leader_bar, 0x3);
  ctm::cp_async_bulk_tensor_3d_shared_cluster_global_cta_group_2_L2_cache_hint(tile, tmap, x, y, 0, leader_bar, 0ull);
  ctm::cp_async_bulk_tensor_5d_shared_cluster_global_multicast_cluster_cta_group_2_L2_cache_hint(tile, tmap, x, y, 0, 0, 0, leader_bar, 0xf, 0ull);
}
#endif

#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || !defined(__CUDA_ARCH__)
// cute_cpp::arch's tensor-memory fences (sm_100a only).
__global__ void tmem_fence_kernel() {
  cute_cpp::arch::fence_view_async_tmem_load();
  cute_cpp::arch::fence_view_async_tmem_store();
}
#endif
