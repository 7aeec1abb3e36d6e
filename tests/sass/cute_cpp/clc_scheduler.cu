// SPDX-License-Identifier: Apache-2.0
// ClcDynamicPersistentTileScheduler with a cluster of one CTA, fed by a PipelineClcFetchAsync, on
// sm_100a and sm_120a: the scheduler warp arms the response barrier (SYNCS.ARRIVE.TRANS64 with
// the 16 bytes) and issues try_cancel (UGETNEXTWORKID.SELFCAST); every warp waits on the
// response (SYNCS.PHASECHK), reads it (LDS.128), fences it against the next response's
// async-proxy write (FENCE.VIEW.ASYNC.S) and releases the slot. No local memory.
// cute-cpp-archs: 100a 120a
// expect-sass: {{"UGETNEXTWORKID\.SELFCAST"}}
// expect-sass: {{"SYNCS\.ARRIVE\.TRANS64 RZ, \[R[0-9]+\+URZ[^]]*\], R[0-9]+"}}
// expect-sass: {{"SYNCS\.PHASECHK\.TRANS64"}}
// expect-sass: {{"LDS\.128"}}
// expect-sass: {{"FENCE\.VIEW\.ASYNC\.S"}}
// reject-sass: {{"UGETNEXTWORKID\.BROADCAST"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/pipeline/pipeline_clc_fetch_async.hpp>
#include <cute_cpp/sched/clc_persistent_tile_scheduler.hpp>

namespace cc = cute_cpp;
using Scheduler = cc::ClcDynamicPersistentTileScheduler<1>;
using Responses = cc::PipelineClcFetchAsync<2, /*warps reading each response=*/4>;

__global__ void __launch_bounds__(128, 1) clc_walk(cc::PersistentTileSchedulerParams p, std::int32_t* out) {
  __shared__ Responses::SharedStorage barriers;
  __shared__ cc::ClcResponse responses[Responses::stages];
  std::uint32_t const warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) Responses::init(barriers);
  __syncthreads();
  Responses const pipe{&barriers};
  Scheduler scheduler(p, blockIdx.x);
  auto produce = cc::make_pipeline_state<Responses::stages>(cc::PipelineUserType::Producer);
  auto consume = cc::make_pipeline_state<Responses::stages>(cc::PipelineUserType::Consumer);
  while (scheduler.has_work()) {
    if (warp == 0) {  // the scheduler warp requests the next tile while the others work
      pipe.producer_acquire(produce, lane);
      if (lane == 0) scheduler.advance_to_next_work(&responses[produce.index()], pipe.producer_get_barrier(produce));
      produce.advance();
    } else {
      cc::WorkTileInfo const w = scheduler.get_current_work();
      if (w.valid && lane == 0) out[(w.l * p.tiles_m + w.m) * p.tiles_n + w.n] = std::int32_t(blockIdx.x);
    }
    pipe.consumer_wait(consume);
    (void)scheduler.fetch_next_work(&responses[consume.index()]);
    pipe.consumer_release(consume, lane);
    consume.advance();
  }
}
