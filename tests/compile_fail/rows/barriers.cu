// Rows of 64-thread groups meet at one named barrier per group of 64 threads; a run of barriers
// for 128 threads each is the wrong one.
// expected-error {{"rows\.barriers.*\n.*\n.*GroupBarriers=4, ThreadsPerRow=64, Count=4, Threads=128"}}
#include <cute_cpp/rows/reduce.hpp>
namespace cc = cute_cpp;
using Config = cc::RowConfig<8, 64, true>;
__global__ void kernel(float* out) {
  __shared__ cc::RowShared shared;
  cc::RowPlace const at = cc::row_place<Config>(512);
  out[threadIdx.x] = cc::row_reduce<Config, cc::NamedBarriers<1, 4, 128>>(1.0f, cc::SumOp{}, 0.0f, shared, at, 0);
}
