// tcgen05.ld used in a sm_90a device pass is rejected, naming the instruction.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.ld"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t taddr, std::uint32_t* out) {
  std::uint32_t r[4];
  ctm::tcgen05_ld<ctm::Tcgen05LdStShape::s32x32b, 4>(r, taddr);
  out[0] = r[0];
}
