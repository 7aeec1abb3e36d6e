// The 8-bit stmatrix x2 needs sm_100a or sm_120a.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: stmatrix\.sync\.aligned\.m16n8\.x2\.trans\.shared\.b8"}}
#include <ctm/common/stmatrix.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  __shared__ alignas(128) std::uint8_t t[512];
  ctm::stmatrix_m16n8_x2_trans_b8(&t[(threadIdx.x % 32) * 16], 1u, 2u);
}
