// wgmma.fence on sm_120a is rejected by name.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm90a-only\]: wgmma\.fence\.sync\.aligned exists only on sm_90a"}}
#include <ctm/sm90/wgmma.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  ctm::wgmma_fence();
}
