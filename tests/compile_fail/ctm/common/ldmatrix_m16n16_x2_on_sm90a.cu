// The 8-bit ldmatrix x2 needs sm_100a or sm_120a.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: ldmatrix\.sync\.aligned\.m16n16\.x2\.trans\.shared\.b8"}}
#include <ctm/common/ldmatrix.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  __shared__ alignas(128) std::uint8_t t[512];
  std::uint32_t a, b, c, d;
  ctm::ldmatrix_m16n16_x2_trans_b8(a, b, c, d, &t[(threadIdx.x % 32) * 16]);
  out[0] = a ^ b ^ c ^ d;
}
