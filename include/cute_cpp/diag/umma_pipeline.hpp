// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates of the sm_100a pipelines (pipeline.umma.*, pipeline.clc.*) and of the cluster
// launch control scheduler (sched.clc.*). The values under test are the template arguments, so
// the compiler prints them on the first context line.
#include <cstdint>

namespace cute_cpp::diag {

/// Rules pipeline.umma.cta-group, pipeline.umma.cluster-size, pipeline.umma.pair-cluster.
template <int CtaGroup, int ClusterSize>
struct umma_pipeline_cluster {
  static_assert(CtaGroup == 1 || CtaGroup == 2,
                "cute-cpp [pipeline.umma.cta-group]: a UMMA pipeline serves one CTA (CtaGroup 1) or a CTA pair "
                "(CtaGroup 2, cta_group::2)");
  static_assert(ClusterSize >= 1 && ClusterSize <= 16,
                "cute-cpp [pipeline.umma.cluster-size]: a cluster holds 1 to 16 CTAs");
  static_assert(ClusterSize % CtaGroup == 0,
                "cute-cpp [pipeline.umma.pair-cluster]: a 2-CTA (cta_group::2) pipeline needs a cluster of an even "
                "number of CTAs (a pair is ranks 2k and 2k+1): launch with a cluster of 2, or use CtaGroup 1");
  static constexpr bool ok = true;
};

/// Rule pipeline.umma.tx-bytes: the pair's bytes arm the leader's barrier, whose transaction
/// count holds less than 2^20.
template <std::uint32_t TxBytesPerCta, int CtaGroup>
struct umma_pipeline_tx_bytes {
  static_assert(TxBytesPerCta > 0 && TxBytesPerCta % 16 == 0 && std::uint64_t(TxBytesPerCta) * CtaGroup < (1u << 20),
                "cute-cpp [pipeline.umma.tx-bytes]: a stage's TMA bytes per CTA are a positive multiple of 16, and "
                "the CTA group's total is below 2^20");
  static constexpr bool ok = true;
};

/// Rule pipeline.umma.consumer-arrivals: a stage's empty barrier is released by MMA commits, one
/// from each MMA-issuing CTA (one per CTA group) that read it; a cluster has ClusterSize /
/// CtaGroup of them.
template <int ConsumerArrivals, int CtaGroup, int ClusterSize>
struct umma_pipeline_consumer_arrivals {
  // NOTE: a cluster smaller than its group is pipeline.umma.pair-cluster's error; not repeated here.
  static constexpr int mma_ctas = ClusterSize >= CtaGroup ? ClusterSize / CtaGroup : 1;
  static_assert(ConsumerArrivals >= 1 && ConsumerArrivals <= mma_ctas,
                "cute-cpp [pipeline.umma.consumer-arrivals]: a TMA->UMMA stage is released by 1 to ClusterSize / "
                "CtaGroup MMA commits (one per MMA-issuing CTA whose MMAs read it)");
  static constexpr bool ok = true;
};

/// Rule pipeline.clc.consumer-arrivals.
template <int ConsumerArrivals>
struct clc_pipeline_consumer_arrivals {
  static_assert(ConsumerArrivals >= 1 && ConsumerArrivals < (1 << 20),
                "cute-cpp [pipeline.clc.consumer-arrivals]: a CLC response stage is released by 1 to 2^20 - 1 "
                "arrivals (every reader of the response in the cluster)");
  static constexpr bool ok = true;
};

/// Rule sched.clc.cluster-size.
template <int ClusterSize>
struct clc_cluster_size {
  static_assert(ClusterSize >= 1 && ClusterSize <= 16,
                "cute-cpp [sched.clc.cluster-size]: a cluster launch control scheduler's cluster holds 1 to 16 CTAs");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
