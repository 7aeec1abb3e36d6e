// add.rn.f32x2 needs sm_100 or later.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: add\.rn\.f32x2"}}
#include <ctm/common/f32x2.hpp>
__global__ void kernel(float* out, float const* in) {
  float2 r = ctm::add_rn_f32x2(make_float2(in[0], in[1]), make_float2(in[2], in[3]));
  out[0] = r.x;
}
