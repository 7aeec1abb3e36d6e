// wgmma.mma_async is an sm_90a instruction: the sm_100a pass rejects it by name.
// cute-cpp-arch: 100a
// expected-error {{"ctm \[target\.sm90a-only\]: wgmma\.mma_async exists only on sm_90a"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  float acc[64] = {};
  ctm::wgmma_mma_async<128, DataType::f32, DataType::bf16, DataType::bf16>(acc, da, db, 1);
  out[0] = acc[0];
}
