// scale-input-d with kind::i8.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.mma\.scale-input-d\]: scale-input-d exists for kind::f16 and kind::tf32 only"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t id) {
  ctm::tcgen05_mma<ctm::Tcgen05Kind::i8>(d, a, b, id, true, ctm::Tcgen05ScaleInputD<1>{});
}
