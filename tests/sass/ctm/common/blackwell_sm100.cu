// The common-family instructions that only sm_100a (and sm_120a) have become their hardware forms
// on sm_100a: packed f32x2 (FFMA2/FADD2/FMUL2), f32 redux (CREDUX), 8-bit ldmatrix/stmatrix
// (LDSM.8 / LDSM.U4 / STSM.8), FP4 and UE8M0 converts (F2FP ... E2M1 / E8), and the 2-CTA TMA
// load (UTMALDG ... 2CTA).
// cute-cpp-arch: 100a
// expect-sass: {{"FFMA2"}}
// expect-sass: {{"FADD2"}}
// expect-sass: {{"FMUL2"}}
// expect-sass: {{"CREDUX\.MAX\.F32"}}
// expect-sass: {{"LDSM\.8\.MT1616"}}
// expect-sass: {{"LDSM\.U4"}}
// expect-sass: {{"STSM\.8\.MT168\.4"}}
// expect-sass: {{"F2FP\.SATFINITE\.E2M1\.F32"}}
// expect-sass: {{"F2FP\.SATFINITE\.E8\.F32"}}
// expect-sass: {{"UTMALDG\.2D\.MULTICAST\.2CTA"}}
#include <ctm/ctm.hpp>

__global__ void blackwell_common(void const* tmap, float2 const* in, float2* out, std::uint32_t* uout) {
  __shared__ alignas(1024) std::uint8_t tile[8192];
  __shared__ alignas(8) std::uint64_t bar;
  float2 a = in[0], b = in[1], c = in[2];
  out[0] = ctm::fma_rn_f32x2(a, b, c);
  out[1] = ctm::add_rn_f32x2(a, c);
  out[2] = ctm::mul_rn_f32x2(b, c);
  out[3].x = ctm::redux_sync_max_f32(a.x);
  void* row = &tile[(threadIdx.x % 32) * 64];
  std::uint32_t r[4], s[4];
  ctm::ldmatrix_m16n16_x2_trans_b8(r[0], r[1], r[2], r[3], row);
  ctm::ldmatrix_m8n16_x4_b8x16_b4x16_p64(s[0], s[1], s[2], s[3], row);
  ctm::stmatrix_m16n8_x4_trans_b8(row, r[0] ^ s[0], r[1] ^ s[1], r[2] ^ s[2], r[3] ^ s[3]);
  uout[threadIdx.x] = ctm::cvt_rn_satfinite_e2m1x2_f32(a.x, a.y) + ctm::cvt_rz_satfinite_ue8m0x2_f32(b.x, b.y);
  ctm::cp_async_bulk_tensor_2d_shared_cluster_global_multicast_cluster_cta_group_2(
      tile, tmap, 0, 0, ctm::mapa_shared_cluster_u32(&bar, ctm::cluster_ctarank() & ~1u), 0x3);
}
