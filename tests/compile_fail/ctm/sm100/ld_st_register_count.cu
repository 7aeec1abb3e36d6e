// 16x128b.x4 moves 8 registers per thread, not 4.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.ld-st\.registers"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t taddr, std::uint32_t* out) {
  std::uint32_t r[4];
  ctm::tcgen05_ld<ctm::Tcgen05LdStShape::s16x128b, 4>(r, taddr);
  out[0] = r[0];
}
