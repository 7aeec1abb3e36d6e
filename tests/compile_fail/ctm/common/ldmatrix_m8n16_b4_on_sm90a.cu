// The FP4-unpacking ldmatrix needs sm_100a or sm_120a.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: ldmatrix\.sync\.aligned\.m8n16\.x4\.shared\.b8x16\.b4x16_p64"}}
#include <ctm/common/ldmatrix.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  __shared__ alignas(128) std::uint8_t t[512];
  std::uint32_t a, b, c, d;
  ctm::ldmatrix_m8n16_x4_b8x16_b4x16_p64(a, b, c, d, &t[(threadIdx.x % 32) * 16]);
  out[0] = a ^ b ^ c ^ d;
}
