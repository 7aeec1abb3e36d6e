// 16x256b.x64 does not exist (16x256b goes to .x32).
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.ld-st\.num"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t taddr, std::uint32_t* out) {
  std::uint32_t r[256];
  ctm::tcgen05_ld<ctm::Tcgen05LdStShape::s16x256b, 64>(r, taddr);
  out[0] = r[0];
}
