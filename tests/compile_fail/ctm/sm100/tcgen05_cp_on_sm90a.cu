// tcgen05.cp used in a sm_90a device pass is rejected, naming the instruction.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.cp"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t taddr, std::uint64_t desc) {
  ctm::tcgen05_cp<ctm::Tcgen05CpShape::s128x256b>(taddr, desc);
}
