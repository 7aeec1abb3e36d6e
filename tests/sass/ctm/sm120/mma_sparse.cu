// sm_120a mma.sp::ordered_metadata with FP8/FP6/FP4 inputs is a QMMA.SP.16864 (kind::f8f6f4)
// or QMMA.SF.SP (kind::mxf8f6f4); the block-scaled FP4 kinds are OMMA.SF.SP.168128.
// cute-cpp-arch: 120a
// expect-sass: {{"QMMA\.SP\.16864\.F32\.E4M3\.E2M1 "}}
// expect-sass: {{"QMMA\.SF\.SP\.16864\.F32\.E5M2\.E2M3\.E8 "}}
// expect-sass: {{"OMMA\.SF\.SP\.168128\.F32\.E2M1\.E2M1\.UE4M3\.4X "}}
#include <ctm/sm120/mma_block_scale.hpp>

__global__ void mma_sparse(float* out, std::uint32_t const* in) {
  using T = ctm::MmaF8F6F4Type;
  std::uint32_t const a[4] = {in[0], in[1], in[2], in[3]};
  std::uint32_t const b[4] = {in[4], in[5], in[6], in[7]};
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  ctm::mma_sp_ordered_metadata_m16n8k64_row_col_kind_f8f6f4<T::e4m3, T::e2m1>(d, a, b, d, in[8]);
  ctm::mma_sp_ordered_metadata_m16n8k64_row_col_kind_mxf8f6f4_block_scale<T::e5m2, T::e2m3>(
      d, a, b, d, in[8], in[9], ctm::MmaScaleSelectorA<0, 0>{}, in[10], ctm::MmaScaleSelectorB<0, 0>{});
  ctm::mma_sp_ordered_metadata_m16n8k128_row_col_kind_mxf4nvf4_block_scale<ctm::MmaScaleVec::x4>(
      d, a, b, d, in[8], in[9], ctm::MmaScaleSelectorA<0, 1>{}, in[10], ctm::MmaScaleSelectorB<0, 2>{});
  for (int i = 0; i < 4; ++i) out[i] = d[i];
}
