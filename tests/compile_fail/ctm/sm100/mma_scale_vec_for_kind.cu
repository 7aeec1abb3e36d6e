// kind::mxf4 with scale_vec::4X (it takes 2X).
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.mma\.scale-vec"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t id) {
  ctm::tcgen05_mma_block_scale<ctm::Tcgen05Kind::mxf4, ctm::Tcgen05ScaleVec::x4>(d, a, b, id, d, d, true);
}
