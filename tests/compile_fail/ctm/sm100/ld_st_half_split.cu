// 16x32bx2 needs its half-split offset (tcgen05_ld_16x32bx2).
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.ld-st\.half-split"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t taddr, std::uint32_t* out) {
  std::uint32_t r[2];
  ctm::tcgen05_ld<ctm::Tcgen05LdStShape::s16x32bx2, 2>(r, taddr);
  out[0] = r[0];
}
