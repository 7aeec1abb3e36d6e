// redux.sync.min.f32 is sm_100a-only: sm_120a rejects it by name.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm100a-only\]: redux\.sync\.min\.f32"}}
#include <ctm/common/shfl.hpp>
__global__ void kernel(float* out, float const* in) {
  out[0] = ctm::redux_sync_min_f32(in[0]);
}
