// wgmma.mma_async with A in registers on sm_100a is rejected by name.
// cute-cpp-arch: 100a
// expected-error {{"ctm \[target\.sm90a-only\]: wgmma\.mma_async exists only on sm_90a"}}
#include <ctm/sm90/wgmma.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  float acc[32] = {};
  std::uint32_t const a[4] = {1u, 2u, 3u, 4u};
  ctm::wgmma_mma_async<64, ctm::DataType::f32, ctm::DataType::f16, ctm::DataType::f16>(acc, a, 0ull, 1u);
  out[0] = static_cast<std::uint32_t>(acc[0]);
}
