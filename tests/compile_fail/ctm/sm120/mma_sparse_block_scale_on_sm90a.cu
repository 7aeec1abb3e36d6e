// The sparse block-scaled mma.sync (mma.sp::ordered_metadata ... kind::mxf4) in a sm_90a
// device pass is rejected, naming the instruction family and the target.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm120a-only\]: mma\.sync with \.block_scale"}}
#include <ctm/sm120/mma_block_scale.hpp>
__global__ void k(float* out, std::uint32_t const* in) {
  float d[4] = {};
  std::uint32_t const a[4] = {in[0], in[1], in[2], in[3]};
  std::uint32_t const b[4] = {in[4], in[5], in[6], in[7]};
  ctm::mma_sp_ordered_metadata_m16n8k128_row_col_kind_mxf4_block_scale(
      d, a, b, d, in[8], in[9], ctm::MmaScaleSelectorA<0, 0>{}, in[10], ctm::MmaScaleSelectorB<0, 0>{});
  out[0] = d[0];
}
