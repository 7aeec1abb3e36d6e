// tcgen05.mma kind::f16 (cta_group::1) is a UTCHMMA: A from shared memory (gdesc), A from
// tensor memory, and the scale-input-d immediate.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem\[UR[0-9]+\]"}}
// expect-sass: {{"UTCHMMA tmem\[UR[0-9]+\], gdesc\[UR[0-9]+\]"}}
// expect-sass: {{"UTCHMMA [^;]*, 0x3 ;"}}
// reject-sass: {{"2CTA"}}
#include <ctm/sm100/tcgen05.hpp>

__global__ void mma_f16(std::uint32_t d, std::uint32_t a_tmem, std::uint64_t a, std::uint64_t b, int acc) {
  constexpr std::uint32_t idesc = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.m = 128, .n = 256}>;
  ctm::tcgen05_mma<ctm::Tcgen05Kind::f16>(d, a, b, idesc, acc != 0);
  ctm::tcgen05_mma_a_tmem<ctm::Tcgen05Kind::f16>(d, a_tmem, b, idesc, true);
  ctm::tcgen05_mma<ctm::Tcgen05Kind::f16>(d, a, b, idesc, true, ctm::Tcgen05ScaleInputD<3>{});
}
