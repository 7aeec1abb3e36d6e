// f16 x bf16 is not a wgmma type pair.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.types\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  float acc[32] = {};
  ctm::wgmma_mma_async<64, DataType::f32, DataType::f16, DataType::bf16>(acc, da, db, 1);
  out[0] = acc[0];
}
