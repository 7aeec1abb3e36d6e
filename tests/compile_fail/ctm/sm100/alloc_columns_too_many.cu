// 1024 tensor-memory columns: more than 512.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.alloc\.columns"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t taddr) {
  ctm::tcgen05_dealloc(taddr, ctm::Tcgen05Cols<1024>{});
}
