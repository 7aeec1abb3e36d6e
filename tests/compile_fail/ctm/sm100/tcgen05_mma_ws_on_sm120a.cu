// tcgen05.mma.ws used in a sm_120a device pass is rejected, naming the instruction.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.mma"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t id, std::uint32_t meta) {
  ctm::tcgen05_mma_ws_sp<ctm::Tcgen05Kind::f16>(d, a, b, meta, id, true);
}
