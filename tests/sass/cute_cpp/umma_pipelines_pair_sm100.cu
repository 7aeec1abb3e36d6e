// SPDX-License-Identifier: Apache-2.0
// The 2-CTA (cta_group::2) UMMA pipelines on sm_100a, for a cluster of 2: both CTAs load with
// UTMALDG ... 2CTA onto the leader's full barrier (a mapa'd address), the leader's MMA thread
// releases and commits with a multicast tcgen05.commit.cta_group::2 (UTCBAR.2CTA.MULTICAST) to
// both CTAs' barriers, the epilogue warps of both CTAs arrive remotely on the leader's empty
// barrier (SYNCS.ARRIVE.TRANS64.RED.A1T0), and the fused-operand producers arrive with
// release at cluster scope (a MEMBAR.ALL.GPU first). No plain 1-CTA commit, no local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTMALDG\.2D\.2CTA"}}
// expect-sass: {{"UTCBAR\.2CTA\.MULTICAST"}}
// expect-sass: {{"SYNCS\.ARRIVE\.TRANS64\.RED\.A1T0"}}
// expect-sass: {{"SYNCS\.PHASECHK\.TRANS64"}}
// expect-sass: {{"FENCE\.VIEW\.ASYNC\.S"}}
// reject-sass: {{"UTCBAR \[UR[0-9]+\], URZ"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/pipeline/pipeline_async_umma.hpp>
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
#include <cute_cpp/pipeline/pipeline_umma_async.hpp>
#include <ctm/common/cp_async_bulk_tensor.hpp>
#include <ctm/common/sreg.hpp>

namespace cc = cute_cpp;
using Operands = cc::PipelineTmaUmma<4, 32768, /*CtaGroup=*/2>;
using Accumulators = cc::PipelineUmmaAsync<2, 4, /*CtaGroup=*/2>;
using Fused = cc::PipelineAsyncUmma<2, 4, /*CtaGroup=*/2>;
static_assert(Operands::tx_bytes == 65536 && Accumulators::empty_arrivals == 8 && Fused::full_arrivals == 8);

struct Smem {
  alignas(1024) std::uint8_t tiles[4][32768];
  alignas(1024) std::uint8_t fused[2][4096];
  Operands::SharedStorage operands;
  Accumulators::SharedStorage accumulators;
  Fused::SharedStorage fused_barriers;
};

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(192, 1)
    umma_pipelines_pair(void const* tmap, std::uint32_t k_blocks) {
  extern __shared__ __align__(1024) std::uint8_t raw[];
  Smem& smem = *reinterpret_cast<Smem*>(raw);
  std::uint32_t const warp = threadIdx.x / 32, lane = threadIdx.x % 32, rank = ctm::cluster_ctarank();
  if (threadIdx.x == 0) {
    Operands::init(smem.operands);
    Accumulators::init(smem.accumulators);
    Fused::init(smem.fused_barriers);
  }
  ctm::barrier_cluster_arrive_aligned();
  ctm::barrier_cluster_wait_aligned();
  Operands const operands{&smem.operands, rank};
  Accumulators const accumulators{&smem.accumulators, rank};
  Fused const fused{&smem.fused_barriers, rank};
  if (warp == 0 && lane == 0) {  // TMA producer, in both CTAs
    auto state = cc::make_pipeline_state<4>(cc::PipelineUserType::Producer);
    for (std::uint32_t k = 0; k < k_blocks; ++k, state.advance()) {
      operands.producer_acquire(state);
      operands.producer_expect_tx(state);
      ctm::cp_async_bulk_tensor_2d_shared_cluster_global_cta_group_2(smem.tiles[state.index()], tmap, int(k * 64),
                                                                     int(rank * 128), operands.producer_get_barrier(state));
    }
  } else if (warp == 1 && lane == 0 && operands.is_leader_cta()) {  // the pair's MMA thread
    auto in = cc::make_pipeline_state<4>(cc::PipelineUserType::Consumer);
    auto extra = cc::make_pipeline_state<2>(cc::PipelineUserType::Consumer);
    auto acc = cc::make_pipeline_state<2>(cc::PipelineUserType::Producer);
    accumulators.producer_acquire(acc);
    for (std::uint32_t k = 0; k < k_blocks; ++k, in.advance(), extra.advance()) {
      operands.consumer_wait(in);
      fused.consumer_wait(extra);
      operands.consumer_release(in);
      fused.consumer_release(extra);
    }
    accumulators.producer_commit(acc);
  } else if (warp >= 2) {  // epilogue warps, in both CTAs
    auto acc = cc::make_pipeline_state<2>(cc::PipelineUserType::Consumer);
    auto out = cc::make_pipeline_state<2>(cc::PipelineUserType::Producer);
    for (std::uint32_t k = 0; k < k_blocks; ++k, out.advance()) {
      fused.producer_acquire(out);
      smem.fused[out.index()][threadIdx.x] = std::uint8_t(k);
      fused.producer_commit(out, lane);
    }
    accumulators.consumer_wait(acc);
    accumulators.consumer_release(acc, lane);
  }
}
