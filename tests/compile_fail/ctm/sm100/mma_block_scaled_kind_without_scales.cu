// kind::mxf4 through the plain tcgen05_mma (it needs scale factors).
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.mma\.kind"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t id) {
  ctm::tcgen05_mma<ctm::Tcgen05Kind::mxf4>(d, a, b, id, true);
}
