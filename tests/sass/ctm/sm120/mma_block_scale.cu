// The sm_120a block-scaled mma.sync: kind::mxf8f6f4 is a QMMA.SF (ue8m0 factors: E8),
// kind::mxf4 an OMMA.SF.16864 with E8 factors, kind::mxf4nvf4 with scale_vec::4X an
// OMMA.SF.16864 ... UE4M3.4X.
// cute-cpp-arch: 120a
// expect-sass: {{"QMMA\.SF\.16832\.F32\.E4M3\.E5M2\.E8 "}}
// expect-sass: {{"OMMA\.SF\.16864\.F32\.E2M1\.E2M1\.E8 "}}
// expect-sass: {{"OMMA\.SF\.16864\.F32\.E2M1\.E2M1\.UE4M3\.4X "}}
#include <ctm/sm120/mma_block_scale.hpp>

__global__ void mma_block_scale(float* out, std::uint32_t const* in) {
  using T = ctm::MmaF8F6F4Type;
  std::uint32_t const a[4] = {in[0], in[1], in[2], in[3]};
  std::uint32_t const b[2] = {in[4], in[5]};
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  ctm::mma_m16n8k32_row_col_kind_mxf8f6f4_block_scale<T::e4m3, T::e5m2>(
      d, a, b, d, in[6], ctm::MmaScaleSelectorA<1, 0>{}, in[7], ctm::MmaScaleSelectorB<2, 3>{});
  ctm::mma_m16n8k64_row_col_kind_mxf4_block_scale(d, a, b, d, in[6], ctm::MmaScaleSelectorA<0, 1>{}, in[7],
                                                  ctm::MmaScaleSelectorB<2, 0>{});
  ctm::mma_m16n8k64_row_col_kind_mxf4nvf4_block_scale<ctm::MmaScaleVec::x4>(
      d, a, b, d, in[6], ctm::MmaScaleSelectorA<0, 0>{}, in[7], ctm::MmaScaleSelectorB<0, 1>{});
  for (int i = 0; i < 4; ++i) out[i] = d[i];
}
