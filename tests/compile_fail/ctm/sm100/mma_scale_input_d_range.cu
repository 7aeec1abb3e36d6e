// scale-input-d 16 is out of range.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.mma\.scale-input-d\]: scale-input-d is an immediate from 0 to 15"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t id) {
  ctm::tcgen05_mma<ctm::Tcgen05Kind::f16>(d, a, b, id, true, ctm::Tcgen05ScaleInputD<16>{});
}
