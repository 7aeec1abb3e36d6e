// N = 40 exists for f16 but not for s8/u8 inputs (multiples of 16 above 24).
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.n\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  std::int32_t acc[20] = {};
  ctm::wgmma_mma_async<40, DataType::s32, DataType::s8, DataType::s8>(acc, da, db, 1);
  out[0] = acc[0];
}
