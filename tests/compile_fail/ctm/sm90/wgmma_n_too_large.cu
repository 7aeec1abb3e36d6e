// N = 264 is beyond wgmma's 256.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.n\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  float acc[132] = {};
  ctm::wgmma_mma_async<264, DataType::f32, DataType::f16, DataType::f16>(acc, da, db, 1);
  out[0] = acc[0];
}
