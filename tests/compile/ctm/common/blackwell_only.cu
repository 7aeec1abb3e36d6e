// The common-family instructions that exist on sm_100a (and sm_120a) but not sm_90a:
// redux.sync.{min,max}.f32 (sm_100a only) and the packed f32x2 arithmetic (sm_100a, sm_120a).
// cute-cpp-archs: 100a 120a
#include <ctm/common/f32x2.hpp>
#include <ctm/common/shfl.hpp>

__global__ void f32x2_kernel(float2 const* in, float2* out) {
  float2 a = in[0], b = in[1], c = in[2];
  out[0] = ctm::fma_rn_f32x2(a, b, c);
  out[1] = ctm::add_rn_f32x2(a, b);
  out[2] = ctm::mul_rn_f32x2(a, b);
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  out[3].x = ctm::redux_sync_min_f32(a.x) + ctm::redux_sync_max_f32(a.y);
#endif
}
