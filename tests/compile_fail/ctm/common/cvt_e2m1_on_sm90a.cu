// FP4 packs need sm_100a or sm_120a.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: cvt\.rn\.satfinite\.e2m1x2\.f32"}}
#include <ctm/common/cvt.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  out[0] = ctm::cvt_rn_satfinite_e2m1x2_f32(in[0], in[1]);
}
