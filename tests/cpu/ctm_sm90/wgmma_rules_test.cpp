// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The constexpr rules behind ctm::wgmma_mma_async (types, N, K, accumulator sizes) and the
// other static helpers, checked on the host against the PTX ISA's tables.
#include <gtest/gtest.h>

#include <string_view>
#include <type_traits>
#include <ctm/common/cp_async.hpp>
#include <ctm/common/setmaxnreg.hpp>
#include <ctm/sm90/wgmma.hpp>

namespace {

using ctm::DataType;

TEST(CtmWgmmaRules, NValuesPerKind) {
  int float_ns = 0, int_ns = 0;
  for (int n = 0; n <= 272; ++n) {
    float_ns += ctm::detail::wgmma_n_valid(n, DataType::bf16);
    int_ns += ctm::detail::wgmma_n_valid(n, DataType::s8);
  }
  EXPECT_EQ(float_ns, 32);  // 8, 16, ..., 256
  EXPECT_EQ(int_ns, 18);    // 8, 16, 24, 32, 48, ..., 256
  EXPECT_TRUE(ctm::detail::wgmma_n_valid(24, DataType::u8));
  EXPECT_FALSE(ctm::detail::wgmma_n_valid(40, DataType::u8));
  EXPECT_TRUE(ctm::detail::wgmma_n_valid(40, DataType::e4m3));
  EXPECT_FALSE(ctm::detail::wgmma_n_valid(264, DataType::f16));
}

TEST(CtmWgmmaRules, TypeCombinations) {
  EXPECT_TRUE(ctm::detail::wgmma_types_valid(DataType::f16, DataType::f16, DataType::f16));
  EXPECT_TRUE(ctm::detail::wgmma_types_valid(DataType::f32, DataType::f16, DataType::f16));
  EXPECT_TRUE(ctm::detail::wgmma_types_valid(DataType::f32, DataType::bf16, DataType::bf16));
  EXPECT_FALSE(ctm::detail::wgmma_types_valid(DataType::f16, DataType::bf16, DataType::bf16));
  EXPECT_TRUE(ctm::detail::wgmma_types_valid(DataType::f32, DataType::tf32, DataType::tf32));
  EXPECT_FALSE(ctm::detail::wgmma_types_valid(DataType::f16, DataType::tf32, DataType::tf32));
  EXPECT_TRUE(ctm::detail::wgmma_types_valid(DataType::f16, DataType::e5m2, DataType::e4m3));
  EXPECT_FALSE(ctm::detail::wgmma_types_valid(DataType::f32, DataType::e4m3, DataType::f16));
  EXPECT_TRUE(ctm::detail::wgmma_types_valid(DataType::s32, DataType::u8, DataType::s8));
  EXPECT_FALSE(ctm::detail::wgmma_types_valid(DataType::f32, DataType::s8, DataType::s8));
  EXPECT_FALSE(ctm::detail::wgmma_types_valid(DataType::f32, DataType::f16, DataType::bf16));
}

TEST(CtmWgmmaRules, KPerInputType) {
  EXPECT_EQ(ctm::detail::wgmma_k(DataType::f16), 16);
  EXPECT_EQ(ctm::detail::wgmma_k(DataType::bf16), 16);
  EXPECT_EQ(ctm::detail::wgmma_k(DataType::tf32), 8);
  EXPECT_EQ(ctm::detail::wgmma_k(DataType::e4m3), 32);
  EXPECT_EQ(ctm::detail::wgmma_k(DataType::s8), 32);
}

TEST(CtmWgmmaRules, AccumulatorRegisters) {
  static_assert(std::is_same_v<ctm::wgmma_accumulator_t<256, DataType::f32>, float[128]>);
  static_assert(std::is_same_v<ctm::wgmma_accumulator_t<256, DataType::f16>, std::uint32_t[64]>);
  static_assert(std::is_same_v<ctm::wgmma_accumulator_t<24, DataType::s32>, std::int32_t[12]>);
  EXPECT_EQ(sizeof(ctm::wgmma_accumulator_t<8, DataType::f32>), 16u);
}

TEST(CtmHelpers, PtxTypeNames) {
  EXPECT_EQ(std::string_view(ctm::to_ptx(DataType::bf16)), "bf16");
  EXPECT_EQ(std::string_view(ctm::to_ptx(DataType::e4m3)), "e4m3");
  EXPECT_EQ(std::string_view(ctm::to_ptx(DataType::s32)), "s32");
}

TEST(CtmHelpers, StaticRulesAcceptTheirValidValues) {
  EXPECT_TRUE((ctm::diag::setmaxnreg_count<24>::ok));
  EXPECT_TRUE((ctm::diag::setmaxnreg_count<256>::ok));
  EXPECT_TRUE((ctm::diag::cp_async_size<8, false>::ok));
  EXPECT_TRUE((ctm::diag::cp_async_size<16, true>::ok));
  EXPECT_TRUE((ctm::diag::wgmma_n<48, DataType::s8>::ok));
}

}  // namespace
