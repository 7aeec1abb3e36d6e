// A from registers has no transpose flag: MajorA = mn is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.a-registers\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  float acc[32] = {};
  std::uint32_t a[4] = {};
  ctm::wgmma_mma_async<64, DataType::f32, DataType::bf16, DataType::bf16, WgmmaMajor::mn>(acc, a, db, 1);
  out[0] = acc[0];
}
