// Split-K moves a thread's accumulators in float4s: a fragment of 6 floats cannot be.
// expected-error {{"split-k\.fragment.*Floats=6"}}
#include <cute_cpp/epilogue/split_k_reduce.hpp>

struct SixFloats {
  float v[6];
};

__global__ void reduce(cute_cpp::SplitKWorkspace ws, std::uint32_t* flag) {
  SixFloats acc{};
  cute_cpp::split_k_reduce<128>(acc, ws, 0, 0, 2, int(threadIdx.x), 1u, flag);
}
