// tcgen05.fence used in a sm_120a device pass is rejected, naming the instruction.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.fence"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k() {
  ctm::tcgen05_fence_after_thread_sync();
}
