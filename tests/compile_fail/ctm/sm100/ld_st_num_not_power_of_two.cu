// .x3 is not a tcgen05.st repetition count.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.ld-st\.num"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t taddr) {
  std::uint32_t const r[3] = {1, 2, 3};
  ctm::tcgen05_st<ctm::Tcgen05LdStShape::s32x32b, 3>(taddr, r);
}
