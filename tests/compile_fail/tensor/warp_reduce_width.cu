// A warp reduction over 12 lanes: the butterfly needs a power of two.
// expected-error {{"tensor\.warp-reduce\.width"}}
#include <cute_cpp/tensor.hpp>
struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};
__global__ void kernel(float* x) { x[threadIdx.x] = cute_cpp::warp_reduce<12>(x[threadIdx.x], Add{}); }
