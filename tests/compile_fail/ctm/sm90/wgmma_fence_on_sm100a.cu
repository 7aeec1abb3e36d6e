// wgmma.fence on sm_100a is rejected by name.
// cute-cpp-arch: 100a
// expected-error {{"ctm \[target\.sm90a-only\]: wgmma\.fence\.sync\.aligned exists only on sm_90a"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  ctm::wgmma_fence();
}
