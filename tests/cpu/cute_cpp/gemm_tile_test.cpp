// SPDX-License-Identifier: Apache-2.0
// The GEMM example's tile heuristic (examples/gemm_sm90/gemm.hpp), on the H200's 132 SMs.
#include "examples/gemm_sm90/gemm.hpp"

#include <gtest/gtest.h>

namespace ex = cute_cpp::examples;

TEST(ChooseGemmTile, LargeProblemsTakeTheWideTile) {
  static_assert(ex::choose_gemm_tile(8192, 8192, 132) == ex::GemmTile::n256);
  static_assert(ex::choose_gemm_tile(4096, 14336, 132) == ex::GemmTile::n256);
  static_assert(ex::choose_gemm_tile(8192, 1536, 132) == ex::GemmTile::n256);
  static_assert(ex::choose_gemm_tile(2048, 2048, 132) == ex::GemmTile::n256);
}

TEST(ChooseGemmTile, FewRowsTakeNarrowerTilesToFillTheGpu) {
  // 128 x 14336: 56 wide tiles fill 42% of 132 SMs; 112 of 128 columns fill 85%.
  static_assert(ex::choose_gemm_tile(128, 14336, 132) == ex::GemmTile::n128);
  // 16 x 4096: 16 wide tiles, 32 of 128, 64 of 64 columns.
  static_assert(ex::choose_gemm_tile(16, 4096, 132) == ex::GemmTile::n64);
}

TEST(ChooseGemmTile, PlansFitTheSharedMemoryBudget) {
  using T = std::uint16_t;
  EXPECT_LE((ex::GemmPlan<T, T, T, ex::OperandMajorMode::K, ex::OperandMajorMode::K, 128, 128, 64, 6, 2>::smem_bytes),
            232448u);
}
