// SPDX-License-Identifier: Apache-2.0
// verify_plan on plans that satisfy every rule they declare (the failing ones are compile-fail cases).
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
#include <cute_cpp/diag/verify_plan.hpp>

#include <gtest/gtest.h>

namespace cc = cute_cpp;

namespace {
struct Empty {};
struct Elementwise {
  static constexpr int threads = 256;
};
struct Warpspecialized {
  static constexpr int threads = 384;
  static constexpr std::size_t smem_bytes = 230000;
  static constexpr int cluster_size = 2;
  using Pipeline = cc::PipelineTmaAsync<4, 16, 49152>;
  static constexpr int consumer_warps = 8;
  static constexpr int cluster_reach = 2;
};
struct BigCluster {
  static constexpr int threads = 128;
  static constexpr int cluster_size = 16;
  static constexpr bool non_portable_cluster = true;
};
}  // namespace

TEST(VerifyPlan, PlansThatKeepTheirRulesPass) {
  static_assert(cc::verify_plan<Empty>());
  static_assert(cc::verify_plan<Elementwise>());
  static_assert(cc::verify_plan<Warpspecialized>());
  static_assert(cc::verify_plan<BigCluster>());
}

TEST(VerifyPlan, SharedMemoryBudgetsPerTarget) {
  EXPECT_EQ(cc::smem_budget_bytes(ctm::Target::sm90a), 232448u);
  EXPECT_EQ(cc::smem_budget_bytes(ctm::Target::sm100a), 232448u);
  EXPECT_EQ(cc::smem_budget_bytes(ctm::Target::sm120a), 101376u);
}
