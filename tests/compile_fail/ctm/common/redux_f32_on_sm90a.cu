// redux.sync.max.f32 is sm_100a-only: sm_90a rejects it by name.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-only\]: redux\.sync\.max\.f32"}}
#include <ctm/common/shfl.hpp>
__global__ void kernel(float* out, float const* in) {
  out[0] = ctm::redux_sync_max_f32(in[0]);
}
