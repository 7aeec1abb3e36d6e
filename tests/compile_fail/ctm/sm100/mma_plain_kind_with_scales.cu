// kind::f16 through tcgen05_mma_block_scale.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.mma\.kind"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t id) {
  ctm::tcgen05_mma_block_scale<ctm::Tcgen05Kind::f16, ctm::Tcgen05ScaleVec::x1>(d, a, b, id, d, d, true);
}
