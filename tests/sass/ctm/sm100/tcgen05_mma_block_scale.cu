// The block-scaled tcgen05.mma kinds: mxf8f6f4 is a UTCQMMA with a scale-factor tensor-memory
// operand, mxf4 a UTCOMMA, mxf4nvf4 with scale_vec::4X a UTCOMMA.4X.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCQMMA gdesc[^;]*idesc\[UR[0-9]+\], tmem\[UR[0-9]+\]"}}
// expect-sass: {{"UTCOMMA gdesc"}}
// expect-sass: {{"UTCOMMA\.4X gdesc"}}
#include <ctm/sm100/tcgen05.hpp>

__global__ void mma_block_scale(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t sfa,
                                std::uint32_t sfb) {
  using ctm::Tcgen05Kind;
  using ctm::Tcgen05Type;
  constexpr std::uint32_t mx8 = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .kind = Tcgen05Kind::mxf8f6f4, .a = Tcgen05Type::e4m3, .b = Tcgen05Type::e4m3, .m = 128, .n = 256,
      .scale = ctm::Tcgen05ScaleType::ue8m0}>;
  constexpr std::uint32_t mx4 = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .kind = Tcgen05Kind::mxf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1, .m = 128, .n = 256,
      .scale = ctm::Tcgen05ScaleType::ue8m0}>;
  constexpr std::uint32_t nv4 = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .kind = Tcgen05Kind::mxf4nvf4, .a = Tcgen05Type::e2m1, .b = Tcgen05Type::e2m1, .m = 128, .n = 256,
      .scale = ctm::Tcgen05ScaleType::ue4m3}>;
  ctm::tcgen05_mma_block_scale<Tcgen05Kind::mxf8f6f4>(d, a, b, mx8, sfa, sfb, true);
  ctm::tcgen05_mma_block_scale<Tcgen05Kind::mxf4>(d, a, b, mx4, sfa, sfb, true);
  ctm::tcgen05_mma_block_scale<Tcgen05Kind::mxf4nvf4, ctm::Tcgen05ScaleVec::x4>(d, a, b, nv4, sfa, sfb, true);
}
