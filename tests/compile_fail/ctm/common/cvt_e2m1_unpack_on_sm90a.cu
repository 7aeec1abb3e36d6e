// FP4 unpacking needs sm_100a or sm_120a.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: cvt\.rn\.f16x2\.e2m1x2"}}
#include <ctm/common/cvt.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  out[0] = ctm::cvt_rn_f16x2_e2m1x2(0x21);
}
