// 48 tensor-memory columns: not a power of two.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.alloc\.columns"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t slot) {
  ctm::tcgen05_alloc(slot, ctm::Tcgen05Cols<48>{});
}
