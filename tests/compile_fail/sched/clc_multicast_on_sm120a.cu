// A CLC scheduler for clusters of two multicasts its requests, which the ISA lists for sm_100a
// only: on sm_120a the error names the instruction.
// cute-cpp-arch: 120a
// expected-error {{"ctm \[target\.sm100a-only\]: clusterlaunchcontrol\.try_cancel\.multicast::cluster::all"}}
#include <cute_cpp/sched/clc_persistent_tile_scheduler.hpp>
__global__ void kernel(cute_cpp::PersistentTileSchedulerParams p) {
  __shared__ cute_cpp::ClcResponse response;
  __shared__ std::uint64_t barrier;
  cute_cpp::ClcDynamicPersistentTileScheduler<2> const scheduler(p, blockIdx.x);
  scheduler.advance_to_next_work(&response, &barrier);
}
