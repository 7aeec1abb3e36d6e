// tcgen05.wait used in a sm_90a device pass is rejected, naming the instruction.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.wait"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k() {
  ctm::fence_view_async_tmem_load();
}
