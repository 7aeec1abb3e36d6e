// tcgen05.mma kind::f8f6f4 is a UTCQMMA without scale-factor operands.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCQMMA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem\[UR[0-9]+\], tmem\[UR[0-9]+\], idesc\[UR[0-9]+\], U?P"}}
#include <ctm/sm100/tcgen05.hpp>

__global__ void mma_f8f6f4(std::uint32_t d, std::uint64_t a, std::uint64_t b, int acc) {
  constexpr std::uint32_t idesc = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .kind = ctm::Tcgen05Kind::f8f6f4, .a = ctm::Tcgen05Type::e4m3, .b = ctm::Tcgen05Type::e2m1,
      .m = 128, .n = 128}>;
  ctm::tcgen05_mma<ctm::Tcgen05Kind::f8f6f4>(d, a, b, idesc, acc != 0);
}
