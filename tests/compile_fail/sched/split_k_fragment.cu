// Split-K moves a thread's accumulators in float4s: a fragment of 6 floats cannot be.
// expected-error {{"split-k\.fragment.*Floats=6"}}
#include <cute_cpp/epilogue/split_k_reduce.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>

struct SixFloats {
  float v[6];
};

__global__ void reduce(cute_cpp::SplitKWorkspace ws, std::uint32_t* flag) {
  SixFloats acc{};
  cute_cpp::ReductionGroup<cute_cpp::NamedBarriers<1, 1, 128>> const group{0, int(threadIdx.x), flag};
  cute_cpp::split_k_reduce(acc, ws, cute_cpp::SplitKPart{0, 0, 2}, group);
}
