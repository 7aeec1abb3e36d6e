// SPDX-License-Identifier: Apache-2.0
// The 1-CTA UMMA pipelines on sm_100a, in the warp roles of a Blackwell GEMM: a TMA producer
// (PipelineTmaUmma: SYNCS.ARRIVE.TRANS64 arms the full barrier, UTMALDG loads), the MMA thread
// (waits with SYNCS.PHASECHK, releases operand stages and commits accumulator stages with
// tcgen05.commit = UTCBAR), epilogue warps (PipelineUmmaAsync: wait, then arrive per warp) that
// also write a fused operand (PipelineAsyncUmma: FENCE.VIEW.ASYNC.S before each arrival). No
// multicast commit in the 1-CTA forms, and no local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTMALDG\.2D \["}}
// expect-sass: {{"SYNCS\.ARRIVE\.TRANS64 RZ, \[R[0-9]+\+URZ[^]]*\], R[0-9]+"}}
// expect-sass: {{"SYNCS\.ARRIVE\.TRANS64\.A1T0"}}
// expect-sass: {{"SYNCS\.PHASECHK\.TRANS64"}}
// expect-sass: {{"UTCBAR \[UR[0-9]+\]"}}
// expect-sass: {{"FENCE\.VIEW\.ASYNC\.S"}}
// reject-sass: {{"UTCBAR\.[A-Z0-9.]*MULTICAST"}}
// reject-sass: {{"UTMALDG\.2D\.2CTA"}}
// reject-sass: {{"[ \t](LDL|STL)[. ]"}}
#define NDEBUG 1
#include <cute_cpp/pipeline/pipeline_async_umma.hpp>
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
#include <cute_cpp/pipeline/pipeline_umma_async.hpp>
#include <ctm/common/cp_async_bulk_tensor.hpp>

namespace cc = cute_cpp;
using Operands = cc::PipelineTmaUmma<4, 32768>;  // 128x64 bf16 A + 128x64 bf16 B per stage
using Accumulators = cc::PipelineUmmaAsync<2, 4>;  // 4 epilogue warps
using Fused = cc::PipelineAsyncUmma<2, 4>;  // the epilogue warps write a fused operand

struct Smem {
  alignas(1024) std::uint8_t tiles[4][32768];
  alignas(1024) std::uint8_t fused[2][4096];
  Operands::SharedStorage operands;
  Accumulators::SharedStorage accumulators;
  Fused::SharedStorage fused_barriers;
};

__global__ void __launch_bounds__(192, 1) umma_pipelines(void const* tmap, std::uint32_t k_blocks) {
  extern __shared__ __align__(1024) std::uint8_t raw[];
  Smem& smem = *reinterpret_cast<Smem*>(raw);
  std::uint32_t const warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    Operands::init(smem.operands);
    Accumulators::init(smem.accumulators);
    Fused::init(smem.fused_barriers);
  }
  __syncthreads();
  Operands const operands{&smem.operands};
  Accumulators const accumulators{&smem.accumulators};
  Fused const fused{&smem.fused_barriers};
  if (warp == 0 && lane == 0) {  // TMA producer
    auto state = cc::make_pipeline_state<4>(cc::PipelineUserType::Producer);
    for (std::uint32_t k = 0; k < k_blocks; ++k, state.advance()) {
      operands.producer_acquire(state);
      operands.producer_expect_tx(state);
      ctm::cp_async_bulk_tensor_2d_shared_cluster_global(smem.tiles[state.index()], tmap, int(k * 64), 0,
                                                         operands.producer_get_barrier(state));
    }
  } else if (warp == 1 && lane == 0) {  // MMA thread (its MMAs are the other workers' part)
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
  } else if (warp >= 2) {  // epilogue warps
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
