// Eight consumer warps in a 2-CTA multicast need 16 empty-barrier arrivals per stage, not 8.
// expected-error {{"pipeline\.consumers.*ConsumerArrivals=8, ConsumerWarps=8, ClusterReach=2"}}
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/diag/verify_plan.hpp>
struct Plan {
  static constexpr int threads = 384;
  using Pipeline = cute_cpp::PipelineTmaAsync<4, 8, 49152>;
  static constexpr int consumer_warps = 8;
  static constexpr int cluster_reach = 2;
};
static_assert(cute_cpp::verify_plan<Plan>());
