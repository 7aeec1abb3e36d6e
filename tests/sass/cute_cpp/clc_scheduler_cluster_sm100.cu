// SPDX-License-Identifier: Apache-2.0
// ClcDynamicPersistentTileScheduler with a cluster of two CTAs on sm_100a: rank 0's scheduler
// warp arms both CTAs' response barriers (lane r arms CTA r's, remotely:
// mbarrier.arrive.expect_tx.release.cluster) and issues the multicast try_cancel
// (UGETNEXTWORKID.BROADCAST); every CTA's warps read their own copy and release the slot on rank
// 0's empty barrier (a remote SYNCS.ARRIVE.TRANS64.RED). No local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UGETNEXTWORKID\.BROADCAST"}}
// expect-sass: {{"SYNCS\.ARRIVE\.TRANS64\.RED"}}
// expect-sass: {{"SYNCS\.PHASECHK\.TRANS64"}}
// expect-sass: {{"LDS\.128"}}
// reject-sass: {{"UGETNEXTWORKID\.SELFCAST"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/pipeline/pipeline_clc_fetch_async.hpp>
#include <cute_cpp/sched/clc_persistent_tile_scheduler.hpp>
#include <ctm/common/cluster.hpp>
#include <ctm/common/sreg.hpp>

namespace cc = cute_cpp;
using Scheduler = cc::ClcDynamicPersistentTileScheduler<2>;
// Every warp of both CTAs reads each response: 2 x 4 warp arrivals release a slot.
using Responses = cc::PipelineClcFetchAsync<2, 8, 2>;

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128, 1)
    clc_walk_cluster(cc::PersistentTileSchedulerParams p, std::int32_t* out) {
  __shared__ Responses::SharedStorage barriers;
  __shared__ cc::ClcResponse responses[Responses::stages];
  std::uint32_t const warp = threadIdx.x / 32, lane = threadIdx.x % 32, rank = ctm::cluster_ctarank();
  if (threadIdx.x == 0) Responses::init(barriers);
  ctm::barrier_cluster_arrive_aligned();
  ctm::barrier_cluster_wait_aligned();
  Responses const pipe{&barriers, rank};
  Scheduler scheduler(p, blockIdx.x);
  auto produce = cc::make_pipeline_state<Responses::stages>(cc::PipelineUserType::Producer);
  auto consume = cc::make_pipeline_state<Responses::stages>(cc::PipelineUserType::Consumer);
  while (scheduler.has_work()) {
    if (warp == 0 && rank == Responses::producer_rank) {
      pipe.producer_acquire(produce, lane);
      if (lane == 0) scheduler.advance_to_next_work(&responses[produce.index()], pipe.producer_get_barrier(produce));
      produce.advance();
    } else if (warp != 0) {
      cc::WorkTileInfo const w = scheduler.get_current_work();
      if (w.valid && lane == 0) out[(w.l * p.tiles_m + w.m) * p.tiles_n + w.n] = std::int32_t(blockIdx.x);
    }
    pipe.consumer_wait(consume);
    (void)scheduler.fetch_next_work(&responses[consume.index()]);
    pipe.consumer_release(consume, lane);
    consume.advance();
  }
  // NOTE: no CTA of a cluster exits while the other may still arrive on its barriers.
  ctm::barrier_cluster_arrive_aligned();
  ctm::barrier_cluster_wait_aligned();
}
