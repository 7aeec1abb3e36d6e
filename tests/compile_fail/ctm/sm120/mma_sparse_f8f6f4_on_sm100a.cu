// The sparse kind::f8f6f4 mma.sync in a sm_100a device pass is rejected, naming it.
// cute-cpp-arch: 100a
// expected-error {{"ctm \[target\.sm120a-only\]: mma\.sync\.aligned\.m16n8k32\.row\.col\.kind::f8f6f4"}}
#include <ctm/sm120/mma_block_scale.hpp>
__global__ void k(float* out, std::uint32_t const* in) {
  float d[4] = {};
  std::uint32_t const a[4] = {in[0], in[1], in[2], in[3]};
  std::uint32_t const b[4] = {in[4], in[5], in[6], in[7]};
  ctm::mma_sp_ordered_metadata_m16n8k64_row_col_kind_f8f6f4<ctm::MmaF8F6F4Type::e2m1, ctm::MmaF8F6F4Type::e2m1>(
      d, a, b, d, in[8]);
  out[0] = d[0];
}
