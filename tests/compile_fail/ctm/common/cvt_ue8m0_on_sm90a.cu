// UE8M0 scale packs need sm_100a or sm_120a.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: cvt\.rz\.satfinite\.ue8m0x2\.f32"}}
#include <ctm/common/cvt.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  out[0] = ctm::cvt_rz_satfinite_ue8m0x2_f32(in[0], in[1]);
}
