// SPDX-License-Identifier: Apache-2.0
#include <cute_cpp/pipeline/named_barrier.hpp>
#include <cute_cpp/pipeline/pipeline_state.hpp>
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>

#include <gtest/gtest.h>

namespace cc = cute_cpp;

TEST(PipelineState, ProducerStartsOnPhaseOneConsumerOnZero) {
  constexpr auto producer = cc::make_pipeline_state<4>(cc::PipelineUserType::Producer);
  constexpr auto consumer = cc::make_pipeline_state<4>(cc::PipelineUserType::Consumer);
  static_assert(producer.phase() == 1 && consumer.phase() == 0 && producer.index() == 0);
}

TEST(PipelineState, AdvanceWrapsAndFlipsThePhase) {
  auto s = cc::make_pipeline_state<3>(cc::PipelineUserType::Consumer);
  std::vector<std::pair<unsigned, unsigned>> seen;
  for (int i = 0; i < 7; ++i) {
    seen.emplace_back(s.index(), s.phase());
    s.advance();
  }
  std::vector<std::pair<unsigned, unsigned>> const want{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}, {0, 0}};
  EXPECT_EQ(seen, want);
  EXPECT_EQ(s.count(), 7u);
}

TEST(PipelineTmaAsync, StorageHoldsTwoBarriersPerStage) {
  using P = cc::PipelineTmaAsync<4, 8, 48 * 1024>;
  static_assert(sizeof(P::SharedStorage) == 4 * 2 * 8 && P::tx_bytes == 49152 && P::stages == 4);
  static_assert(cc::NamedBarrier<1, 256>::threads == 256);
}

TEST(NamedBarrierAllocation, HandsOutDisjointRunsFromOne) {
  using A = cc::NamedBarrierAllocation<cc::BarrierRequest<2, 128>, cc::BarrierRequest<1, 64>,
                                       cc::BarrierRequest<2, 256>>;
  std::vector<std::pair<int, int>> const runs{{A::user<0>::first, A::user<0>::count},
                                              {A::user<1>::first, A::user<1>::count},
                                              {A::user<2>::first, A::user<2>::count}};
  std::vector<std::pair<int, int>> const want{{1, 2}, {3, 1}, {4, 2}};
  EXPECT_EQ(runs, want);
  EXPECT_EQ(A::ids_used, 5);
  EXPECT_EQ(A::user<2>::threads, 256);
  EXPECT_EQ(A::user<2>::barrier<1>::id, 5);
}
