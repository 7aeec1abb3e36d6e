// s8/u8 wgmma has no imm-scale: -1 is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.scale-ab\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  std::int32_t acc[32] = {};
  ctm::wgmma_mma_async<64, DataType::s32, DataType::s8, DataType::s8, WgmmaMajor::k, WgmmaMajor::k, -1, 1>(acc, da, db, 1);
  out[0] = acc[0];
}
