// The A-collector qualifiers of tcgen05.mma appear on the A operand of the UTC*MMA:
// fill -> .A_KEEP, use -> .A_REUSE.A_KEEP, lastuse -> .A_REUSE.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA gdesc\[UR[0-9]+\]\.A_KEEP, "}}
// expect-sass: {{"UTCHMMA gdesc\[UR[0-9]+\]\.A_REUSE\.A_KEEP, "}}
// expect-sass: {{"UTCHMMA gdesc\[UR[0-9]+\]\.A_REUSE, "}}
#include <ctm/sm100/tcgen05.hpp>

__global__ void mma_collector(std::uint32_t d, std::uint64_t a, std::uint64_t b) {
  using C = ctm::Tcgen05CollectorA;
  constexpr std::uint32_t idesc = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.m = 128, .n = 128}>;
  ctm::tcgen05_mma_collector_a<ctm::Tcgen05Kind::f16, C::fill>(d, a, b, idesc, false);
  ctm::tcgen05_mma_collector_a<ctm::Tcgen05Kind::f16, C::use>(d + 128, a, b + 2, idesc, false);
  ctm::tcgen05_mma_collector_a<ctm::Tcgen05Kind::f16, C::lastuse>(d + 256, a, b + 4, idesc, false);
}
