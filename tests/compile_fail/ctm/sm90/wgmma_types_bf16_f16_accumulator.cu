// bf16 inputs accumulate in f32 only: an f16 accumulator is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.types\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  std::uint32_t acc[16] = {};
  ctm::wgmma_mma_async<64, DataType::f16, DataType::bf16, DataType::bf16>(acc, da, db, 1);
  out[0] = acc[0];
}
