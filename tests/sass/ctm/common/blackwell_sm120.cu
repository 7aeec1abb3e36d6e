// On sm_120a the 8-bit ldmatrix/stmatrix and the FP4/UE8M0 converts are hardware instructions,
// while the packed f32x2 arithmetic that PTX accepts there becomes scalar FFMA/FADD/FMUL (no
// FFMA2): docs/deviations.md.
// cute-cpp-arch: 120a
// expect-sass: {{"LDSM\.8\.MT1616"}}
// expect-sass: {{"STSM\.8\.MT168\.4"}}
// expect-sass: {{"F2FP\.SATFINITE\.E2M1\.F32"}}
// expect-sass: {{"F2FP\.SATFINITE\.E8\.F32"}}
// reject-sass: {{"FFMA2"}}
#include <ctm/ctm.hpp>

__global__ void blackwell_common(float2 const* in, float2* out, std::uint32_t* uout) {
  __shared__ alignas(1024) std::uint8_t tile[8192];
  float2 a = in[0], b = in[1], c = in[2];
  out[0] = ctm::fma_rn_f32x2(a, b, c);
  void* row = &tile[(threadIdx.x % 32) * 64];
  std::uint32_t r[4];
  ctm::ldmatrix_m16n16_x2_trans_b8(r[0], r[1], r[2], r[3], row);
  ctm::stmatrix_m16n8_x4_trans_b8(row, r[0], r[1], r[2], r[3]);
  uout[threadIdx.x] = ctm::cvt_rn_satfinite_e2m1x2_f32(a.x, a.y) + ctm::cvt_rz_satfinite_ue8m0x2_f32(b.x, b.y);
}
