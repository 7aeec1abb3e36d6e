// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The elementwise epilogue functors (epilogue/fusion.hpp): the squared ReLU by hand, Activated
// ignoring the element's coordinates, and which functors a grouped plan may take (is_elementwise_v).
#include <cute_cpp/epilogue/fusion.hpp>

#include <gtest/gtest.h>

#include <cmath>

#include <cuda_bf16.h>

namespace ep = cute_cpp::epilogue;

namespace {

TEST(EpilogueFusion, ReLUSquaredByHand) {
  ep::ReLUSquared const f;
  EXPECT_EQ(f(3.0f), 9.0f);
  EXPECT_EQ(f(0.5f), 0.25f);
  EXPECT_EQ(f(-2.0f), 0.0f);
  EXPECT_EQ(f(0.0f), 0.0f);
  EXPECT_EQ(f(-0.0f), 0.0f);
  EXPECT_EQ(f(1e20f), INFINITY);  // relu(x)^2 overflows f32 as it does in torch
}

TEST(EpilogueFusion, ActivatedAppliesTheActivationWhateverTheCoordinates) {
  ep::Activated<ep::ReLUSquared> const op;
  EXPECT_EQ(op(-1.5f, 0, 0), 0.0f);
  EXPECT_EQ(op(1.5f, 7, 123456789), 2.25f);
  EXPECT_EQ(op(1.5f, 1 << 30, 0), 2.25f);
  ep::Activated<ep::ReLU> const relu;
  EXPECT_EQ(relu(-4.0f, 3, 4), 0.0f);
  EXPECT_EQ(relu(4.0f, 3, 4), 4.0f);
}

TEST(EpilogueFusion, ElementwiseFunctorsAreThoseReadingOnlyTheAccumulator) {
  static_assert(ep::is_elementwise_v<ep::Identity>);
  static_assert(ep::is_elementwise_v<ep::Activated<ep::ReLUSquared>>);
  static_assert(!ep::is_elementwise_v<ep::LinearCombination<__nv_bfloat16>>);  // reads C's row
  static_assert(!ep::is_elementwise_v<ep::SwiGLU>);                            // gated, its own rule
  static_assert(!ep::is_elementwise_v<ep::Dequantize<>>);                      // per-row scales
  SUCCEED();
}

}  // namespace
