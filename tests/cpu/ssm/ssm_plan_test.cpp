// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kernels/ssm's host-computable pieces: the varlen tiling (locate_tile, first_tile, max_tiles)
// against an enumeration and the reference's chunk order, the SSD workspace at Nemotron-3 Nano's
// prefill by hand, dt's softplus and clamp against the reference, and every host rule.
#include <gtest/gtest.h>

#include <cute_cpp/kernels/ssm/ssm_args.hpp>
#include <cute_cpp/kernels/ssm/ssm_plan.hpp>

#include "support/ssm_reference.hpp"

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace ref = cute_cpp::test::ssm;

namespace {

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (std::invalid_argument const& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// Tile n of the kernels' grid is chunk n of the reference's order; past the last, invalid; the
// bound holds and is reached where the comment says.
TEST(SsmPlan, LocateTileMatchesTheReferenceOrder) {
  std::mt19937_64 rng(46010);
  std::uniform_int_distribution<int> len(0, 300);
  for (int trial = 0; trial < 200; ++trial) {
    int const S = 1 + trial % 7, tile = trial % 2 ? 128 : 64;
    std::vector<int> cu{0};
    for (int s = 0; s < S; ++s) cu.push_back(cu.back() + len(rng));
    auto const chunks = ref::chunks_of(cu, tile);
    ASSERT_LE(std::int64_t(chunks.size()), kn::max_tiles(cu.back(), S, tile));
    for (std::size_t n = 0; n < chunks.size(); ++n) {
      auto const t = kn::locate_tile(cu.data(), S, tile, int(n));
      ASSERT_TRUE(t.valid());
      EXPECT_EQ(t.seq, chunks[n].seq);
      EXPECT_EQ(t.begin, chunks[n].begin);
      EXPECT_EQ(t.end, chunks[n].end);
      EXPECT_EQ(n, std::size_t(kn::first_tile(cu.data(), t.seq, tile) + t.index));
    }
    EXPECT_FALSE(kn::locate_tile(cu.data(), S, tile, int(chunks.size())).valid());
    // With empty tiles: every sequence has at least one, in order.
    int n = 0;
    for (int s = 0; s < S; ++s) {
      int const tiles = std::max(1, (cu[s + 1] - cu[s] + tile - 1) / tile);
      for (int i = 0; i < tiles; ++i, ++n) {
        auto const t = kn::locate_tile(cu.data(), S, tile, n, true);
        ASSERT_EQ(t.seq, s);
        EXPECT_EQ(t.begin, std::min(cu[s] + i * tile, cu[s + 1]));
      }
    }
    EXPECT_LE(n, kn::max_tiles(cu.back(), S, tile, true));
    EXPECT_FALSE(kn::locate_tile(cu.data(), S, tile, n, true).valid());
  }
  // Tight: lengths 1 more than a multiple of the tile; with empty tiles, empty sequences.
  std::vector<int> const ones{0, 129, 258, 259};
  EXPECT_EQ(kn::max_tiles(259, 3, 128), 5);
  EXPECT_EQ(ref::chunks_of(ones, 128).size(), 5u);
  EXPECT_EQ(kn::max_tiles(0, 4, 64, true), 4);
}

// Nemotron-3 Nano at 2048 tokens, one sequence: 16 chunks; dt and a (2048 x 64 f32 = 524288 B
// each), CB (16 x 8 x 128 x 128 f32 = 8388608 B), chunk states (16 x 64 x 64 x 128 f32 = 33554432 B).
TEST(SsmPlan, WorkspaceAtNemotronPrefill) {
  auto const w = kn::ssd_workspace<kn::NemotronSsdPlan>(2048, 1, 64, 8);
  EXPECT_EQ(w.chunks, 16);
  EXPECT_EQ(w.dt, 0u);
  EXPECT_EQ(w.dA_cumsum, 524288u);
  EXPECT_EQ(w.cb, 1048576u);
  EXPECT_EQ(w.states, 1048576u + 8388608u);
  EXPECT_EQ(w.bytes, 42991616u);
  // Ragged: offsets 256-byte aligned and in order; 3 sequences of 1 token: 3 chunks.
  auto const r = kn::ssd_workspace<kn::NemotronSsdPlan>(3, 3, 5, 1);
  EXPECT_EQ(r.chunks, 3);
  EXPECT_EQ(r.dA_cumsum, 256u);  // 3 x 5 x 4 = 60 bytes, rounded up
  EXPECT_EQ(r.cb % 256, 0u);
  EXPECT_EQ(r.states, r.cb + 3u * 128 * 128 * 4);
  EXPECT_EQ(r.bytes, r.states + 3u * 5 * 64 * 128 * 4);
  static_assert(kn::NemotronSsdPlan::state_per_thread == 32);
  // The tensor-core plan differs only in where its chunk products run.
  using TensorCores = kn::NemotronSsdPlanTensorCores;
  static_assert(kn::NemotronSsdPlan::products == kn::SsdProducts::cuda_cores);
  static_assert(TensorCores::products == kn::SsdProducts::tensor_cores);
  static_assert(TensorCores::head_dim == 64 && TensorCores::state == 128 && TensorCores::chunk == 128);
  EXPECT_EQ(kn::ssd_workspace<TensorCores>(2048, 1, 64, 8).bytes,
            kn::ssd_workspace<kn::NemotronSsdPlan>(2048, 1, 64, 8).bytes);
  static_assert(kn::NemotronConvPlan::state_len == 3);
}

// softplus_dt (the kernels') agrees with the reference's, in double and within f32 rounding.
TEST(SsmPlan, SoftplusDtMatchesTheReference) {
  for (double raw : {-30.0, -5.0, -0.3, 0.0, 0.7, 4.0, 19.5, 20.5, 40.0})
    for (double bias : {-1.0, 0.0, 2.0}) {
      for (auto [lo, hi] : {std::pair{0.0, double(INFINITY)}, std::pair{0.001, 0.1}}) {
        double const want = ref::dt_of(raw, bias, lo, hi);
        EXPECT_DOUBLE_EQ(kn::softplus_dt<double>(raw, bias, lo, hi), want);
        EXPECT_NEAR(kn::softplus_dt<float>(float(raw), float(bias), float(lo), float(hi)), want, 2e-6 * (1 + want));
      }
    }
  EXPECT_DOUBLE_EQ(kn::softplus_dt<double>(0.0, 0.0, 0.0, INFINITY), std::log(2.0));
  EXPECT_DOUBLE_EQ(kn::softplus_dt<double>(25.0, 0.0, 0.0, INFINITY), 25.0);
  EXPECT_DOUBLE_EQ(kn::softplus_dt<double>(-30.0, 0.0, 0.001, 0.1), 0.001);
}

// Every host rule names its id; valid arguments pass.
TEST(SsmPlan, HostRules) {
  EXPECT_NE(error_of([] { kn::check_ssm_heads(6, 4); }).find("[ssm.shape]"), std::string::npos);
  EXPECT_NE(error_of([] { kn::check_ssm_heads(0, 1); }).find("[ssm.shape]"), std::string::npos);
  EXPECT_EQ(error_of([] { kn::check_ssm_heads(64, 8); }), "");
  EXPECT_NE(error_of([] { kn::check_ssm_count("num_seqs", 0, 1); }).find("[ssm.shape]"), std::string::npos);
  EXPECT_NE(error_of([] { kn::check_ssm_count("tokens", std::int64_t(1) << 31, 0); }).find("tokens=2147483648"),
            std::string::npos);
  EXPECT_NE(error_of([] { kn::check_ssm_stride("x", 63, 64); }).find("[ssm.stride]"), std::string::npos);
  EXPECT_EQ(error_of([] { kn::check_ssm_stride("x", 10304, 4096); }), "");
  EXPECT_NE(error_of([] { kn::check_ssm_workspace(10, 11); }).find("[ssm.workspace]"), std::string::npos);
  EXPECT_NE(error_of([] { kn::check_ssm_norm_groups(4096, 7); }).find("[ssm.shape]"), std::string::npos);
  EXPECT_EQ(error_of([] { kn::check_ssm_norm_groups(4096, 8); }), "");
  int const starts_late[] = {1, 5}, decreasing[] = {0, 5, 4, 9}, short_end[] = {0, 5, 8}, good[] = {0, 5, 5, 9};
  EXPECT_NE(error_of([&] { kn::check_ssm_cu_seqlens(starts_late, 1, 5); }).find("[ssm.cu-seqlens]"), std::string::npos);
  EXPECT_NE(error_of([&] { kn::check_ssm_cu_seqlens(decreasing, 3, 9); }).find("[ssm.cu-seqlens]"), std::string::npos);
  EXPECT_NE(error_of([&] { kn::check_ssm_cu_seqlens(short_end, 2, 9); }).find("[ssm.cu-seqlens]"), std::string::npos);
  EXPECT_EQ(error_of([&] { kn::check_ssm_cu_seqlens(good, 3, 9); }), "");
  EXPECT_EQ(error_of([&] { kn::check_ssm_cu_seqlens(nullptr, 3, 9); }), "");
}
