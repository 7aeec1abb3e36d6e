// fma.rn.f32x2 needs sm_100 or later: sm_90a rejects it by name.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: fma\.rn\.f32x2"}}
#include <ctm/common/f32x2.hpp>
__global__ void kernel(float* out, float const* in) {
  float2 r = ctm::fma_rn_f32x2(make_float2(in[0], in[1]), make_float2(in[2], in[3]), make_float2(0.f, 0.f));
  out[0] = r.x;
}
