// tcgen05.mma with cta_group::2 is the 2CTA form of the same instruction class (tf32 here,
// also a UTCHMMA), and its commit is a 2CTA UTCBAR.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA\.2CTA gdesc"}}
// expect-sass: {{"UTCBAR\.2CTA"}}
#include <ctm/sm100/tcgen05.hpp>

__global__ void mma_pair(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t mbar) {
  constexpr std::uint32_t idesc = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .kind = ctm::Tcgen05Kind::tf32, .a = ctm::Tcgen05Type::tf32, .b = ctm::Tcgen05Type::tf32,
      .m = 256, .n = 256, .cta_group = 2}>;
  ctm::tcgen05_mma<ctm::Tcgen05Kind::tf32, 2>(d, a, b, idesc, true);
  ctm::tcgen05_commit<2>(mbar);
}
