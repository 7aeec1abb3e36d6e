// fp8 operands must be K-major: an MN-major A is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.transpose\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  float acc[32] = {};
  ctm::wgmma_mma_async<64, DataType::f32, DataType::e4m3, DataType::e4m3, WgmmaMajor::mn>(acc, da, db, 1);
  out[0] = acc[0];
}
