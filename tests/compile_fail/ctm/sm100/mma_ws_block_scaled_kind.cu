// tcgen05.mma.ws has no block-scaled kinds.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.mma\.ws\.kind"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t id) {
  ctm::tcgen05_mma_ws<ctm::Tcgen05Kind::mxf8f6f4>(d, a, b, id, true);
}
