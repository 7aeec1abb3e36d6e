// wgmma.wait_group takes 0..7: 8 is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.wait-group\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  ctm::wgmma_wait_group<8>();
}
