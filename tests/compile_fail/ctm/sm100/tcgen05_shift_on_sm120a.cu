// tcgen05.shift used in a sm_120a device pass is rejected, naming the instruction.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.shift"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t taddr) {
  ctm::tcgen05_shift_down(taddr);
}
