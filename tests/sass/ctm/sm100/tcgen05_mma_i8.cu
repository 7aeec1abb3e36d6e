// tcgen05.mma kind::i8 is a UTCIMMA.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCIMMA gdesc\[UR[0-9]+\], gdesc"}}
#include <ctm/sm100/tcgen05.hpp>

__global__ void mma_i8(std::uint32_t d, std::uint64_t a, std::uint64_t b) {
  constexpr std::uint32_t idesc = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .kind = ctm::Tcgen05Kind::i8, .a = ctm::Tcgen05Type::s8, .b = ctm::Tcgen05Type::s8,
      .d = ctm::Tcgen05DType::s32, .m = 128, .n = 256}>;
  ctm::tcgen05_mma<ctm::Tcgen05Kind::i8>(d, a, b, idesc, false);
}
