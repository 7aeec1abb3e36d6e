// cta_group::3 does not exist.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.cta-group"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t mbar) {
  ctm::tcgen05_commit<3>(mbar);
}
