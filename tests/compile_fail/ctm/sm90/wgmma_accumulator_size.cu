// an m64n64 f32 accumulator is float[32]: float[64] is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[wgmma\.accumulator\]"}}
#include <ctm/sm90/wgmma.hpp>
using ctm::DataType;
using ctm::WgmmaMajor;
__global__ void kernel(float* out, std::uint64_t da, std::uint64_t db) {
  float acc[64] = {};
  ctm::wgmma_mma_async<64, DataType::f32, DataType::bf16, DataType::bf16>(acc, da, db, 1);
  out[0] = acc[0];
}
