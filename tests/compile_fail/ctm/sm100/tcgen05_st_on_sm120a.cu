// tcgen05.st used in a sm_120a device pass is rejected, naming the instruction.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.st"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t taddr) {
  std::uint32_t const r[4] = {1, 2, 3, 4};
  ctm::tcgen05_st<ctm::Tcgen05LdStShape::s16x256b, 1>(taddr, r);
}
