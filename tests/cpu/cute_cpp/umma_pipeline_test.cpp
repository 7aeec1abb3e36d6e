// SPDX-License-Identifier: Apache-2.0
// The sm_100a pipelines' host-computable parts: the CTA-pair masks and leaders (against the
// cluster-rank bits written out by hand), the barriers' arrival and transaction-byte counts, and
// a barrier-accounting model of one stage in a cluster, in which each CTA's loads, commits and
// epilogue arrivals go where the pipelines send them; every barrier used must then complete
// exactly (arrivals and bytes as initialised), and every barrier left unused must receive nothing.
#include <cute_cpp/pipeline/pipeline_async_umma.hpp>
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
#include <cute_cpp/pipeline/pipeline_umma_async.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace cc = cute_cpp;

TEST(UmmaCtaPair, PairIsRanks2kAnd2kPlus1) {
  using Pair = cc::UmmaCtaPair<2>;
  std::uint32_t const leaders[8] = {0, 0, 2, 2, 4, 4, 6, 6};
  std::uint32_t const peers[8] = {1, 0, 3, 2, 5, 4, 7, 6};
  std::uint16_t const masks[8] = {0b11, 0b11, 0b1100, 0b1100, 0b110000, 0b110000, 0b11000000, 0b11000000};
  for (std::uint32_t r = 0; r < 8; ++r) {
    SCOPED_TRACE(r);
    EXPECT_EQ(Pair::leader_rank(r), leaders[r]);
    EXPECT_EQ(Pair::peer_rank(r), peers[r]);
    EXPECT_EQ(Pair::mask(r), masks[r]);
    EXPECT_EQ(Pair::is_leader(r), r % 2 == 0);
  }
  EXPECT_EQ(Pair::mask(14), 0xC000);  // the last pair of a 16-CTA cluster
  EXPECT_EQ(Pair::mask(15), 0xC000);
}

TEST(UmmaCtaPair, AloneEveryCtaLeadsItself) {
  using Alone = cc::UmmaCtaPair<1>;
  for (std::uint32_t r = 0; r < 16; ++r) {
    EXPECT_EQ(Alone::leader_rank(r), r);
    EXPECT_EQ(Alone::peer_rank(r), r);
    EXPECT_TRUE(Alone::is_leader(r));
    EXPECT_EQ(Alone::mask(r), 1u << r);
  }
}

// A 128x256x64 bf16 MMA tile: A is 128x64 (16 KiB), B 256x64 (32 KiB) per stage on one CTA.
// With a pair (2-CTA MMA 256x256x64), each CTA loads its 128 rows of A and half of B: 16 KiB +
// 16 KiB, and the leader's barrier expects both CTAs' 64 KiB.
TEST(PipelineTmaUmma, TransactionBytesAndArrivals) {
  using One = cc::PipelineTmaUmma<4, 128 * 64 * 2 + 256 * 64 * 2>;
  static_assert(One::tx_bytes == 49152 && One::full_arrivals == 1 && One::empty_arrivals == 1);
  using Pair = cc::PipelineTmaUmma<4, 128 * 64 * 2 + 128 * 64 * 2, 2>;
  static_assert(Pair::tx_bytes == 65536 && Pair::full_arrivals == 1 && Pair::empty_arrivals == 1);
  static_assert(Pair::cluster_size == 2 && Pair::cta_group == 2);
  // A 4x1 cluster of pairs whose B loads multicast to both pairs: two MMA commits release a stage.
  using Multicast = cc::PipelineTmaUmma<6, 32768, 2, 4, 2>;
  static_assert(Multicast::tx_bytes == 65536 && Multicast::empty_arrivals == 2);
  EXPECT_TRUE((One{nullptr, 3}.is_leader_cta()));
  EXPECT_TRUE((Pair{nullptr, 2}.is_leader_cta()));
  EXPECT_FALSE((Pair{nullptr, 3}.is_leader_cta()));
}

TEST(PipelineUmmaAsync, EmptyBarrierCountsBothEpiloguesOfAPair) {
  using One = cc::PipelineUmmaAsync<2, 128>;  // 4 epilogue warps, arriving per thread
  static_assert(One::full_arrivals == 1 && One::empty_arrivals == 128);
  using Pair = cc::PipelineUmmaAsync<2, 4, 2>;  // 4 epilogue warps per CTA, arriving per warp
  static_assert(Pair::full_arrivals == 1 && Pair::empty_arrivals == 8);
  EXPECT_FALSE((Pair{nullptr, 1}.is_leader_cta()));
}

TEST(PipelineAsyncUmma, FullBarrierCountsBothProducersOfAPair) {
  using One = cc::PipelineAsyncUmma<3, 4>;
  static_assert(One::full_arrivals == 4 && One::empty_arrivals == 1);
  using Pair = cc::PipelineAsyncUmma<3, 4, 2, 2>;
  static_assert(Pair::full_arrivals == 8 && Pair::empty_arrivals == 1);
  EXPECT_TRUE((Pair{nullptr, 0}.is_leader_cta()));
}

namespace {
struct Barrier {
  int arrivals = 0;
  std::int64_t tx = 0;  // expected minus completed bytes
  bool touched = false;
};
struct Cta {
  Barrier full, empty;
};

// One stage of a TMA->UMMA pipeline in a cluster of `ranks` CTAs, as the pipeline drives it.
template <class Pipe>
std::vector<Cta> tma_umma_stage(std::uint32_t ranks, std::uint32_t tx_bytes_per_cta) {
  std::vector<Cta> cta(ranks);
  for (std::uint32_t r = 0; r < ranks; ++r) {
    Pipe const pipe{nullptr, r};
    std::uint32_t const leader = Pipe::Pair::leader_rank(r);
    if (pipe.is_leader_cta()) {  // producer_expect_tx
      cta[r].full.arrivals += 1;
      cta[r].full.tx += Pipe::tx_bytes;
      cta[r].full.touched = true;
    }
    cta[leader].full.tx -= tx_bytes_per_cta;  // this CTA's loads complete on producer_get_barrier
    cta[leader].full.touched = true;
  }
  for (std::uint32_t r = 0; r < ranks; ++r) {  // consumer_release: the leaders' commits
    if (!Pipe::Pair::is_leader(r)) continue;
    std::uint16_t const mask = Pipe::Pair::mask(r);
    for (std::uint32_t t = 0; t < ranks; ++t)
      if (mask >> t & 1u) {
        cta[t].empty.arrivals += 1;
        cta[t].empty.touched = true;
      }
  }
  return cta;
}
}  // namespace

TEST(PipelineTmaUmma, AStageCompletesExactlyInEveryCta) {
  for (std::uint32_t ranks : {2u, 4u, 8u}) {
    SCOPED_TRACE(ranks);
    using Pair = cc::PipelineTmaUmma<4, 32768, 2, 2>;
    auto const cta = tma_umma_stage<Pair>(ranks, 32768);
    for (std::uint32_t r = 0; r < ranks; ++r) {
      SCOPED_TRACE(r);
      if (r % 2 == 0) {
        EXPECT_EQ(cta[r].full.arrivals, Pair::full_arrivals);
        EXPECT_EQ(cta[r].full.tx, 0);  // both CTAs' bytes, as armed
      } else {
        EXPECT_FALSE(cta[r].full.touched);  // the peer's full barrier stays unused
      }
      EXPECT_EQ(cta[r].empty.arrivals, Pair::empty_arrivals);  // both CTAs' stages freed
    }
  }
  using One = cc::PipelineTmaUmma<4, 49152>;
  auto const alone = tma_umma_stage<One>(1, 49152);
  EXPECT_EQ(alone[0].full.arrivals, 1);
  EXPECT_EQ(alone[0].full.tx, 0);
  EXPECT_EQ(alone[0].empty.arrivals, 1);
}

TEST(PipelineUmmaAsync, APairsAccumulatorStageCompletesExactly) {
  using Pair = cc::PipelineUmmaAsync<2, 4, 2>;
  std::vector<Cta> cta(2);
  std::uint16_t const mask = Pair::Pair::mask(0);  // the leader's producer_commit
  for (std::uint32_t t = 0; t < 2; ++t) cta[t].full.arrivals += mask >> t & 1u;
  for (std::uint32_t r = 0; r < 2; ++r)  // each CTA's 4 warps: consumer_release to the leader
    cta[Pair::Pair::leader_rank(r)].empty.arrivals += Pair::consumer_arrivals;
  EXPECT_EQ(cta[0].full.arrivals, Pair::full_arrivals);
  EXPECT_EQ(cta[1].full.arrivals, Pair::full_arrivals);
  EXPECT_EQ(cta[0].empty.arrivals, Pair::empty_arrivals);
  EXPECT_EQ(cta[1].empty.arrivals, 0);
}
