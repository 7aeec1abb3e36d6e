// The CLC scheduler on sm_90a: cluster launch control needs sm_100 or later, and the error says
// to use the static scheduler there.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: clusterlaunchcontrol\.try_cancel does not exist on sm_90a; use StaticPersistentTileScheduler"}}
#include <cute_cpp/sched/clc_persistent_tile_scheduler.hpp>
__global__ void kernel(cute_cpp::PersistentTileSchedulerParams p) {
  __shared__ cute_cpp::ClcResponse response;
  __shared__ std::uint64_t barrier;
  cute_cpp::ClcDynamicPersistentTileScheduler<1> const scheduler(p, blockIdx.x);
  scheduler.advance_to_next_work(&response, &barrier);
}
