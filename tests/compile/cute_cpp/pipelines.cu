// SPDX-License-Identifier: Apache-2.0
// The pipelines, the named barrier and the tile scheduler compile in device code on every target.
// cute-cpp-archs: 90a 100a 120a
#include <cute_cpp/pipeline/named_barrier.hpp>
#include <cute_cpp/pipeline/pipeline_async.hpp>
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/pipeline/pipeline_tma_store.hpp>
#include <cute_cpp/sched/static_persistent_tile_scheduler.hpp>

using cute_cpp::PipelineUserType;

__global__ void pipelines(cute_cpp::PersistentTileSchedulerParams tiles, int* out) {
  using Tma = cute_cpp::PipelineTmaAsync<3, 4, 4096>;
  using Async = cute_cpp::PipelineAsync<2, 32, 32>;
  __shared__ Tma::SharedStorage tma_barriers;
  __shared__ Async::SharedStorage async_barriers;
  if (threadIdx.x == 0) {
    Tma::init(tma_barriers);
    Async::init(async_barriers);
  }
  __syncthreads();
  Tma const tma{&tma_barriers};
  Async const async{&async_barriers};
  auto produced = cute_cpp::make_pipeline_state<2>(PipelineUserType::Producer);
  auto consumed = cute_cpp::make_pipeline_state<2>(PipelineUserType::Consumer);
  if (threadIdx.x < 32) {
    async.producer_acquire(produced);
    async.producer_commit(produced);
  } else {
    async.consumer_wait(consumed);
    async.consumer_release(consumed);
  }
  auto s = cute_cpp::make_pipeline_state<3>(PipelineUserType::Consumer);
  if (threadIdx.x == 0) {
    tma.producer_acquire(s);
    tma.producer_expect_tx(s);
  }
  tma.consumer_release(s, threadIdx.x % 32);
  cute_cpp::NamedBarrier<1, 64>::sync();
  cute_cpp::PipelineTmaStore<2>::producer_acquire();
  cute_cpp::PipelineTmaStore<2>::producer_commit();
  cute_cpp::PipelineTmaStore<2>::producer_tail();
  cute_cpp::StaticPersistentTileScheduler scheduler(tiles, blockIdx.x, gridDim.x);
  for (; scheduler.has_work(); scheduler.advance_to_next_work()) out[scheduler.get_current_work().m] = 1;
}
