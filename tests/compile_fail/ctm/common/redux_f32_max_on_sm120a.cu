// redux.sync.max.f32 is sm_100a-only: sm_120a rejects it by name.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm100a-only\]: redux\.sync\.max\.f32"}}
#include <ctm/common/shfl.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  out[0] = static_cast<std::uint32_t>(ctm::redux_sync_max_f32(in[0]));
}
