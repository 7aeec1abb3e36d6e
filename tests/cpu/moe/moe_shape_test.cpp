// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The MoE block's host rules (kernels/moe/moe_shape.hpp): [moe.shape], [moe.routing], [moe.pointers],
// each refused with its id, and the shapes it takes (Qwen3-30B-A3B's, Nemotron-3 Nano's).
#include <cute_cpp/kernels/moe/moe_shape.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace moe = cute_cpp::kernels::moe;

namespace {

moe::MoeShape nemotron_nano() {
  return {.tokens = 512, .hidden = 2688, .ffn = 1856, .experts = 128, .top_k = 6, .renormalize = true,
          .routing = moe::MoeRouting::sigmoid, .activation = moe::MoeActivation::relu2, .routed_scaling = 2.5f,
          .groups = 1, .top_groups = 1, .shared_ffn = 3712};
}

/// The id in the message of what `f` throws, or "" if it throws nothing.
template <class F>
std::string rule_of(F&& f) {
  try {
    f();
  } catch (std::invalid_argument const& e) {
    std::string const what = e.what();
    auto const open = what.find('['), close = what.find(']');
    return open == std::string::npos ? what : what.substr(open + 1, close - open - 1);
  }
  return "";
}

TEST(MoeShape, TakesQwenAndNemotron) {
  moe::MoeShape const qwen{.tokens = 4096, .hidden = 2048, .ffn = 768, .experts = 128, .top_k = 8};
  EXPECT_EQ(rule_of([&] { moe::check_moe_shape(qwen), moe::check_moe_routing(qwen); }), "");
  auto const n = nemotron_nano();
  EXPECT_EQ(rule_of([&] { moe::check_moe_shape(n), moe::check_moe_routing(n); }), "");
  auto g = n;  // DeepSeek-V3's routing: 256 experts in 8 groups, 4 kept, top 8
  g.experts = 256, g.top_k = 8, g.groups = 8, g.top_groups = 4;
  EXPECT_EQ(rule_of([&] { moe::check_moe_routing(g); }), "");
}

TEST(MoeShape, RefusesSizes) {
  auto s = nemotron_nano();
  s.shared_ffn = 12;  // not a multiple of 8
  EXPECT_EQ(rule_of([&] { moe::check_moe_shape(s); }), "moe.shape");
  s = nemotron_nano();
  s.experts = 300;
  EXPECT_EQ(rule_of([&] { moe::check_moe_shape(s); }), "moe.shape");
  s = nemotron_nano();
  s.top_k = 17;
  EXPECT_EQ(rule_of([&] { moe::check_moe_shape(s); }), "moe.shape");
}

/// Expert parallelism: a rank of N holds experts [r E/N, (r+1) E/N) as local 0 .. E/N - 1; the other
/// ranks' choices go to one more group, last (foreign_group), which the permute sorts after the local
/// experts' rows and the grouped GEMMs (on_rank's E/N groups) never reach.
TEST(MoeShape, ExpertRangesSortOtherRanksChoicesLast) {
  moe::MoeShape const one{.tokens = 64, .hidden = 2048, .ffn = 768, .experts = 128, .top_k = 8};
  EXPECT_EQ(one.sorted_groups(), 128);  // one device: the permute's groups are the experts, as before
  EXPECT_EQ(one.on_rank().experts, 128);
  for (int ranks : {2, 4, 8}) {
    for (int r = 0; r < ranks; ++r) {
      auto s = one;
      s.expert_begin = r * 128 / ranks, s.local_experts = 128 / ranks;
      EXPECT_EQ(rule_of([&] { moe::check_moe_shape(s); }), "");
      EXPECT_EQ(s.foreign_group(), 128 / ranks);
      EXPECT_EQ(s.sorted_groups(), 128 / ranks + 1);
      EXPECT_EQ(s.on_rank().experts, s.foreign_group());  // the GEMMs' groups end where the foreign one starts
      EXPECT_EQ(s.on_rank().local_experts, 0);
      EXPECT_LE(s.sorted_groups(), moe::max_experts);  // the permute's counters
    }
  }
}

TEST(MoeShape, RefusesExpertRanges) {
  moe::MoeShape s{.tokens = 4, .hidden = 64, .ffn = 64, .experts = 8, .top_k = 2};
  s.expert_begin = 6, s.local_experts = 4;  // past the 8 experts
  EXPECT_EQ(rule_of([&] { moe::check_moe_shape(s); }), "moe.shape");
  s.expert_begin = -1, s.local_experts = 4;
  EXPECT_EQ(rule_of([&] { moe::check_moe_shape(s); }), "moe.shape");
  // 256 local experts leave no counter of the permute for the foreign group.
  s.experts = 256, s.expert_begin = 0, s.local_experts = 256;
  EXPECT_EQ(rule_of([&] { moe::check_moe_shape(s); }), "moe.shape");
  s.local_experts = 255;
  EXPECT_EQ(rule_of([&] { moe::check_moe_shape(s); }), "");
  EXPECT_EQ(s.sorted_groups(), 256);
}

TEST(MoeShape, RefusesRouting) {
  auto const refused = [](auto change) {
    auto s = nemotron_nano();
    change(s);
    return rule_of([&] { moe::check_moe_routing(s); });
  };
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.experts = 126, s.top_k = 6; }), "moe.routing");  // f32 rows: E % 4
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.groups = 3; }), "moe.routing");                 // 3 does not divide 128
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.groups = 64; }), "moe.routing");                // more than 32 groups
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.groups = 4, s.top_groups = 5; }), "moe.routing");
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.groups = 4, s.top_groups = 0; }), "moe.routing");
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.experts = 8, s.groups = 8, s.top_k = 1; }), "moe.routing");  // groups of 1
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.experts = 16, s.groups = 4, s.top_groups = 1, s.top_k = 5; }),
            "moe.routing");  // 5 > one group of 4
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.routed_scaling = 0.0f; }), "moe.routing");
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.routing = moe::MoeRouting::softmax; }), "moe.routing");  // scaling 2.5
  EXPECT_EQ(refused([](moe::MoeShape& s) {
              s.routing = moe::MoeRouting::softmax, s.routed_scaling = 1.0f;  // a shared expert
            }),
            "moe.routing");
  EXPECT_EQ(refused([](moe::MoeShape& s) { s.experts = 16, s.groups = 4, s.top_groups = 2, s.top_k = 8; }), "");
}

TEST(MoeShape, RefusesPointers) {
  auto const s = nemotron_nano();
  auto const* p = reinterpret_cast<moe::bf16 const*>(0x1000);
  auto const* bias = reinterpret_cast<float const*>(0x2000);
  alignas(16) int x = 0, y = 0, scratch = 0;
  moe::MoeWeights w{.router = p, .down = p, .up = p, .correction_bias = bias, .shared_up = p, .shared_down = p};
  EXPECT_EQ(rule_of([&] { moe::check_moe_pointers(&x, &y, &scratch, w, s); }), "");
  auto missing = w;
  missing.up = nullptr;  // ReLU^2 experts read up, not gate_up
  missing.gate_up = p;
  EXPECT_EQ(rule_of([&] { moe::check_moe_pointers(&x, &y, &scratch, missing, s); }), "moe.pointers");
  missing = w;
  missing.shared_down = nullptr;
  EXPECT_EQ(rule_of([&] { moe::check_moe_pointers(&x, &y, &scratch, missing, s); }), "moe.pointers");
  auto no_shared = s;
  no_shared.shared_ffn = 0;  // shared weights given without Fs
  EXPECT_EQ(rule_of([&] { moe::check_moe_pointers(&x, &y, &scratch, w, no_shared); }), "moe.pointers");
  moe::MoeShape const qwen{.tokens = 8, .hidden = 64, .ffn = 64, .experts = 8, .top_k = 2};
  moe::MoeWeights const qwen_w{.router = p, .gate_up = p, .down = p, .correction_bias = bias};
  EXPECT_EQ(rule_of([&] { moe::check_moe_pointers(&x, &y, &scratch, qwen_w, qwen); }), "moe.pointers");  // bias
  EXPECT_EQ(rule_of([&] { moe::check_moe_pointers(nullptr, &y, &scratch, w, s); }), "moe.pointers");
  auto misaligned = w;
  misaligned.down = p + 1;  // 2 bytes past 16: the decode kernels' 16-byte loads would fault
  EXPECT_EQ(rule_of([&] { moe::check_moe_pointers(&x, &y, &scratch, misaligned, s); }), "moe.pointers");
}

TEST(MoeShape, SigmoidRouterTakesTheGemvWhereTheDenseDispatchWould) {
  // Nemotron-3 Nano's router (128 x 2688) on the H200's 132 SMs: the skinny GEMV at decode's one
  // token (the dense dispatch's choice for the bf16 shape), the wide f32 tile from batch 32 up.
  auto n = nemotron_nano();
  n.tokens = 1;
  EXPECT_TRUE(moe::router_f32_skinny(n, 132));
  EXPECT_EQ(cute_cpp::kernels::choose_gemm_plan(1, 128, 2688, 132).tile, cute_cpp::kernels::GemmTile::simt);
  n.tokens = 32;
  EXPECT_FALSE(moe::router_f32_skinny(n, 132));
  n.tokens = 512;
  EXPECT_FALSE(moe::router_f32_skinny(n, 132));
  n.tokens = 0;
  EXPECT_FALSE(moe::router_f32_skinny(n, 132));
}

TEST(MoeShape, RowKernelsSpreadFewRowsOverWarps) {
  // Decode at batch 1 (1 token, 6 choices): a row's columns over a CTA's 8 warps.
  EXPECT_EQ(moe::moe_row_warps(1, 132), 8);
  EXPECT_EQ(moe::moe_row_warps(6, 132), 8);
  EXPECT_EQ(moe::moe_row_warps(132, 132), 8);  // 8 warps an SM
  EXPECT_EQ(moe::moe_row_warps(133, 132), 4);
  EXPECT_EQ(moe::moe_row_warps(192, 132), 4);  // batch 32's 192 choices
  EXPECT_EQ(moe::moe_row_warps(1056, 132), 1);
  EXPECT_EQ(moe::moe_row_warps(4096 * 8, 132), 1);  // prefill: a warp a row, as before
  static_assert(moe::moe_row_warps(0, 132) == 8);
}

TEST(MoeShape, ReLU2SharedExpertRunsDense) {
  // Nemotron-3 Nano's shared expert, at decode's one token and at prefill's 512: the dense GEMMs.
  auto n = nemotron_nano();
  EXPECT_TRUE(moe::shared_expert_dense(n));
  n.tokens = 1;
  EXPECT_TRUE(moe::shared_expert_dense(n));
  // No shared expert: nothing to run.
  auto none = n;
  none.shared_ffn = 0;
  EXPECT_FALSE(moe::shared_expert_dense(none));
  // A SwiGLU shared expert's interleaved gate-up weight stays on the grouped GEMM's SwiGLU epilogue.
  auto swiglu = n;
  swiglu.activation = moe::MoeActivation::swiglu;
  EXPECT_FALSE(moe::shared_expert_dense(swiglu));
  static_assert(moe::shared_expert_dense(moe::MoeShape{.tokens = 1, .hidden = 64, .ffn = 64, .experts = 8, .top_k = 2,
                                                       .activation = moe::MoeActivation::relu2, .shared_ffn = 64}));
}

}  // namespace

TEST(MoeShape, DecodeRouterTakesDecodeStepsOnOneDevice) {
  moe::MoeShape qwen{.tokens = 1, .hidden = 2048, .ffn = 768, .experts = 128, .top_k = 8};
  EXPECT_TRUE(moe::moe_decode_router_takes(qwen));
  qwen.tokens = 8;  // 32 KB of staged rows
  EXPECT_TRUE(moe::moe_decode_router_takes(qwen));
  qwen.tokens = 9;  // past a decode step: the router GEMM and route_kernel
  EXPECT_FALSE(moe::moe_decode_router_takes(qwen));
  qwen.tokens = 0;
  EXPECT_FALSE(moe::moe_decode_router_takes(qwen));
  auto rank = qwen;  // a tensor-parallel rank's experts: the masking launch follows the router's
  rank.tokens = 1, rank.expert_begin = 32, rank.local_experts = 32;
  EXPECT_FALSE(moe::moe_decode_router_takes(rank));
  auto n = nemotron_nano();
  n.tokens = 8;  // 43 KB
  EXPECT_TRUE(moe::moe_decode_router_takes(n));
  moe::MoeShape wide{.tokens = 8, .hidden = 7168, .ffn = 2048, .experts = 256, .top_k = 8};  // 112 KB of rows
  EXPECT_FALSE(moe::moe_decode_router_takes(wide));
  wide.tokens = 6;  // 84 KB
  EXPECT_TRUE(moe::moe_decode_router_takes(wide));
}
