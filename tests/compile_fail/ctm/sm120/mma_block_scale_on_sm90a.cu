// The block-scaled mma.sync in a sm_90a device pass is rejected, naming it.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm120a-only\]: mma\.sync with \.block_scale"}}
#include <ctm/sm120/mma_block_scale.hpp>
__global__ void k(float* out, std::uint32_t const* in) {
  float d[4] = {};
  std::uint32_t const a[4] = {in[0], in[1], in[2], in[3]};
  std::uint32_t const b[2] = {in[4], in[5]};
  ctm::mma_m16n8k64_row_col_kind_mxf4nvf4_block_scale<ctm::MmaScaleVec::x4>(
      d, a, b, d, in[6], ctm::MmaScaleSelectorA<0, 0>{}, in[7], ctm::MmaScaleSelectorB<0, 0>{});
  out[0] = d[0];
}
