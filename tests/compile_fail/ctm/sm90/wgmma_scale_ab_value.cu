// imm-scale-a is 1 or -1: 2 is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.scale-ab\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  float acc[32] = {};
  ctm::wgmma_mma_async<64, DataType::f32, DataType::bf16, DataType::bf16, WgmmaMajor::k, WgmmaMajor::k, 2, 1>(acc, da, db, 1);
  out[0] = acc[0];
}
