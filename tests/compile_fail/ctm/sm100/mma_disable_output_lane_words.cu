// a 4-word disable-output-lane mask with cta_group::2 (it takes 8).
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.mma\.disable-output-lane"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t id) {
  std::uint32_t const lanes[4] = {0, 0, 0, 0};
  ctm::tcgen05_mma<ctm::Tcgen05Kind::f16, 2>(d, a, b, id, lanes, true);
}
