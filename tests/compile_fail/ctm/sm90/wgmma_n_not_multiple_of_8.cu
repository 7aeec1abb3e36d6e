// N = 12 is not a wgmma shape: the rule names N.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.n\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  float acc[6] = {};
  ctm::wgmma_mma_async<12, DataType::f32, DataType::bf16, DataType::bf16>(acc, da, db, 1);
  out[0] = acc[0];
}
