// wgmma.commit_group on sm_120a is rejected by name.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm90a-only\]: wgmma\.commit_group\.sync\.aligned exists only on sm_90a"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  ctm::wgmma_commit_group();
}
