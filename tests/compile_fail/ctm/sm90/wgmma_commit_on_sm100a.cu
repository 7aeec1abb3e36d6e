// wgmma.commit_group on sm_100a is rejected by name.
// cute-cpp-arch: 100a
// expected-error {{"ctm \[target\.sm90a-only\]: wgmma\.commit_group\.sync\.aligned exists only on sm_90a"}}
#include <ctm/sm90/wgmma.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  ctm::wgmma_commit_group();
}
