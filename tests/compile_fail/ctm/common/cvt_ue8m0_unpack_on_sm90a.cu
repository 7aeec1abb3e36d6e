// UE8M0 unpacking needs sm_100a or sm_120a.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: cvt\.rn\.bf16x2\.ue8m0x2"}}
#include <ctm/common/cvt.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  out[0] = ctm::cvt_rn_bf16x2_ue8m0x2(0x7f7f);
}
