// redux.sync.min.f32 is sm_100a-only: sm_90a rejects it by name.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-only\]: redux\.sync\.min\.f32"}}
#include <ctm/common/shfl.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  out[0] = static_cast<std::uint32_t>(ctm::redux_sync_min_f32(in[0]));
}
