// Eight consumer warps do not fit a 128-thread block.
// expected-error {{"plan\.consumer-warps.*ConsumerWarps=8, Threads=128"}}
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/diag/verify_plan.hpp>
struct Plan {
  static constexpr int threads = 128;
  using Pipeline = cute_cpp::PipelineTmaAsync<2, 8, 4096>;
  static constexpr int consumer_warps = 8;
};
static_assert(cute_cpp::verify_plan<Plan>());
