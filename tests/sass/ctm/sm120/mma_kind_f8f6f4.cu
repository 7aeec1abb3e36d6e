// sm_120a mma.sync kind::f8f6f4 is a QMMA.16832 naming both element types and the accumulator.
// cute-cpp-arch: 120a
// expect-sass: {{"QMMA\.16832\.F32\.E4M3\.E2M1 "}}
// expect-sass: {{"QMMA\.16832\.F16\.E3M2\.E2M3 "}}
#include <ctm/sm120/mma_block_scale.hpp>

__global__ void mma_f8f6f4(float* out, std::uint32_t const* in) {
  using T = ctm::MmaF8F6F4Type;
  std::uint32_t const a[4] = {in[0], in[1], in[2], in[3]};
  std::uint32_t const b[2] = {in[4], in[5]};
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  std::uint32_t h[2] = {in[6], in[7]};
  ctm::mma_m16n8k32_row_col_kind_f8f6f4<T::e4m3, T::e2m1>(d, a, b, d);
  ctm::mma_m16n8k32_row_col_kind_f8f6f4<T::e3m2, T::e2m3>(h, a, b, h);
  for (int i = 0; i < 4; ++i) out[i] = d[i] + static_cast<float>(h[i % 2]);
}
