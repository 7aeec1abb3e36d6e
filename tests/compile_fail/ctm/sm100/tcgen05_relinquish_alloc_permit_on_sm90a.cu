// tcgen05_relinquish_alloc_permit used in a sm_90a device pass is rejected, naming the instruction.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.alloc, tcgen05\.dealloc and tcgen05\.relinquish_alloc_permit"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k() {
  ctm::tcgen05_relinquish_alloc_permit();
}
