// The 8-bit ldmatrix forms need sm_100a or sm_120a: sm_90a rejects them by name.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: ldmatrix\.sync\.aligned\.m16n16\.x1\.trans\.shared\.b8"}}
#include <ctm/common/ldmatrix.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  __shared__ alignas(128) std::uint8_t t[256];
  std::uint32_t a, b;
  ctm::ldmatrix_m16n16_x1_trans_b8(a, b, &t[(threadIdx.x % 16) * 16]);
  out[0] = a ^ b;
}
