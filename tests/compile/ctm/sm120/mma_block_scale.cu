// The sm_120a FP8/FP6/FP4 mma.sync forms compile: kind::f8f6f4 for all 25 type pairs with f32
// and f16 accumulators, kind::mxf8f6f4 block-scaled for all 25 pairs, kind::mxf4 and
// kind::mxf4nvf4 (2X and 4X), dense and with sparse A (mma.sp::ordered_metadata), with valid
// scale-factor selectors.
// cute-cpp-archs: 120a
#include <ctm/sm120/mma_block_scale.hpp>

namespace {
using ctm::MmaF8F6F4Type;
using ctm::MmaScaleSelectorA;
using ctm::MmaScaleSelectorB;

template <MmaF8F6F4Type A, MmaF8F6F4Type B>
__device__ void pair(float (&d)[4], std::uint32_t (&h)[2], std::uint32_t const (&a)[4],
                     std::uint32_t const (&b)[2], std::uint32_t sfa, std::uint32_t sfb) {
  ctm::mma_m16n8k32_row_col_kind_f8f6f4<A, B>(d, a, b, d);
  ctm::mma_m16n8k32_row_col_kind_f8f6f4<A, B>(h, a, b, h);
  ctm::mma_m16n8k32_row_col_kind_mxf8f6f4_block_scale<A, B>(d, a, b, d, sfa, MmaScaleSelectorA<3, 1>{},
                                                            sfb, MmaScaleSelectorB<1, 3>{});
  std::uint32_t const b4[4] = {b[0], b[1], b[1], b[0]};
  ctm::mma_sp_ordered_metadata_m16n8k64_row_col_kind_f8f6f4<A, B>(d, a, b4, d, sfa);
  ctm::mma_sp_ordered_metadata_m16n8k64_row_col_kind_f8f6f4<A, B>(h, a, b4, h, sfb);
  ctm::mma_sp_ordered_metadata_m16n8k64_row_col_kind_mxf8f6f4_block_scale<A, B>(
      d, a, b4, d, sfa ^ sfb, sfa, MmaScaleSelectorA<2, 0>{}, sfb, MmaScaleSelectorB<3, 2>{});
}

template <MmaF8F6F4Type A, MmaF8F6F4Type... Bs>
__device__ void row(float (&d)[4], std::uint32_t (&h)[2], std::uint32_t const (&a)[4],
                    std::uint32_t const (&b)[2], std::uint32_t sfa, std::uint32_t sfb) {
  (pair<A, Bs>(d, h, a, b, sfa, sfb), ...);
}

template <MmaF8F6F4Type... As>
__device__ void all_pairs(float (&d)[4], std::uint32_t (&h)[2], std::uint32_t const (&a)[4],
                          std::uint32_t const (&b)[2], std::uint32_t sfa, std::uint32_t sfb) {
  using T = MmaF8F6F4Type;
  (row<As, T::e4m3, T::e5m2, T::e3m2, T::e2m3, T::e2m1>(d, h, a, b, sfa, sfb), ...);
}
}  // namespace

__global__ void mma_fp8_fp6_fp4(float* out, std::uint32_t const* in, std::uint32_t sfa, std::uint32_t sfb) {
  using T = MmaF8F6F4Type;
  std::uint32_t const a[4] = {in[0], in[1], in[2], in[3]};
  std::uint32_t const b[2] = {in[4], in[5]};
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  std::uint32_t h[2] = {0, 0};
  all_pairs<T::e4m3, T::e5m2, T::e3m2, T::e2m3, T::e2m1>(d, h, a, b, sfa, sfb);
  ctm::mma_m16n8k64_row_col_kind_mxf4_block_scale(d, a, b, d, sfa, MmaScaleSelectorA<2, 1>{}, sfb,
                                                  MmaScaleSelectorB<0, 3>{});
  ctm::mma_m16n8k64_row_col_kind_mxf4nvf4_block_scale<ctm::MmaScaleVec::x2>(
      d, a, b, d, sfa, MmaScaleSelectorA<2, 0>{}, sfb, MmaScaleSelectorB<2, 2>{});
  ctm::mma_m16n8k64_row_col_kind_mxf4nvf4_block_scale<ctm::MmaScaleVec::x4>(
      d, a, b, d, sfa, MmaScaleSelectorA<0, 1>{}, sfb, MmaScaleSelectorB<0, 3>{});
  std::uint32_t const b4[4] = {in[4], in[5], in[6], in[7]};
  ctm::mma_sp_ordered_metadata_m16n8k128_row_col_kind_mxf4_block_scale(
      d, a, b4, d, in[8], sfa, MmaScaleSelectorA<2, 1>{}, sfb, MmaScaleSelectorB<2, 3>{});
  ctm::mma_sp_ordered_metadata_m16n8k128_row_col_kind_mxf4nvf4_block_scale<ctm::MmaScaleVec::x2>(
      d, a, b4, d, in[8], sfa, MmaScaleSelectorA<0, 1>{}, sfb, MmaScaleSelectorB<2, 0>{});
  ctm::mma_sp_ordered_metadata_m16n8k128_row_col_kind_mxf4nvf4_block_scale<ctm::MmaScaleVec::x4>(
      d, a, b4, d, in[8], sfa, MmaScaleSelectorA<0, 0>{}, sfb, MmaScaleSelectorB<0, 3>{});
  for (int i = 0; i < 4; ++i) out[i] = d[i] + static_cast<float>(h[i % 2]);
}
