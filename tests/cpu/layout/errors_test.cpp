// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Dynamic inputs that break a rule throw std::invalid_argument with the rule's text and values;
// malformed notation names the position.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>
#include <cute_cpp/layout.hpp>
#include <cute_cpp/layout/expression.hpp>  // evaluate_layout_expression
#include <cute_cpp/layout/svg.hpp>         // to_svg, to_svg_tv
#include "support/error_of.hpp"

namespace cc = cute_cpp;

using cute_cpp::test::error_of;

TEST(LayoutErrors, DynamicRulesThrowWithTheRuleAndValues) {
  auto a = cc::parse_layout("(6,4):(1,8)");
  EXPECT_EQ(error_of([&] { (void)cc::composition(a, cc::parse_layout("8:1")); }),
            "cute-cpp [layout.composition.shape-divisibility]: composition(A, B): B's shape does not divide into "
            "A's shape (B's remaining shape, A's mode shape); make B's shape a multiple or divisor of A's modes: got 8, 6");
  EXPECT_NE(error_of([&] { (void)cc::composition(cc::parse_layout("(8,4):(1,16)"), cc::parse_layout("4:6")); })
                .find("cute-cpp [layout.composition.stride-divisibility]"),
            std::string::npos);
  // A stride that does not divide the mode is fine when B ends inside the mode (as C++ CuTe).
  EXPECT_EQ(cc::to_string(cc::composition(cc::parse_layout("(4,4):(1,8)"), cc::parse_layout("2:3"))), "2:3");
  EXPECT_NE(error_of([&] { (void)cc::complement(cc::parse_layout("(2,2):(1,1)")); })
                .find("cute-cpp [layout.complement.injective]: complement needs an injective layout"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)cc::logical_divide(cc::parse_layout("8:1"), cc::make_tile(2, 2)); })
                .find("cute-cpp [layout.divide.tiler-rank]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)cc::logical_divide(a, cc::parse_layout("8:1")); })
                .find("cute-cpp [layout.divide.tiler-fits]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)cc::logical_product(cc::parse_layout("8:1"), cc::make_tile(2, 2)); })
                .find("cute-cpp [layout.product.tiler-rank]"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { (void)cc::parse_layout("(4,8):(1,4)")(32); }),
            "cute-cpp [layout.coord.out-of-range]: a coordinate lies outside its mode (coordinate, extent): got 32, 32");
  EXPECT_NE(error_of([&] { (void)cc::parse_layout("(4,8):(1,4)")(cc::make_coord(1, 8)); })
                .find("[layout.coord.out-of-range]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)cc::parse_layout("(4,8):(1,4)")(cc::make_coord(1, 2, 3)); })
                .find("[layout.coord.congruent]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)cc::coalesce(cc::parse_layout("4:1"), cc::make_tuple(1, 1)); })
                .find("[layout.profile.rank]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { (void)cc::make_layout(cc::DynTuple(cc::parse_int_tuple("(2,2)")), cc::parse_int_tuple("4")); })
                .find("[layout.congruent]"),
            std::string::npos);
}

// A product whose operands must be padded past the 32 nodes a dynamic layout holds reports the
// capacity (the padding loop once spun forever on the full tuple: a fuzz-found hang).
TEST(LayoutErrors, ProductsPastTheCapacityReportIt) {
  std::string modes;
  for (int i = 0; i < 31; ++i) modes += (i ? "," : "") + std::to_string(i % 7 + 1);  // 32 nodes: full
  for (char const* op : {"blocked_product", "raked_product"}) {
    std::string const expression = std::string(op) + "((" + modes + "),(3,(4)))";
    EXPECT_NE(error_of([&] { (void)cc::evaluate_layout_expression(expression); }).find("[layout.capacity]"),
              std::string::npos)
        << expression;
  }
}

TEST(LayoutErrors, NotationErrorsNameThePosition) {
  EXPECT_EQ(error_of([] { (void)cc::parse_layout("(4,8:(1,4)"); }),
            "cute-cpp [layout.notation.syntax]: at position 4 of \"(4,8:(1,4)\": expected ',' or ')'");
  EXPECT_EQ(error_of([] { (void)cc::parse_layout("(4,8)"); }),
            "cute-cpp [layout.notation.syntax]: at position 5 of \"(4,8)\": expected ':' between shape and stride");
  EXPECT_EQ(error_of([] { (void)cc::parse_layout("(4,8):(1,(4,2))"); }),
            "cute-cpp [layout.notation.syntax]: at position 6 of \"(4,8):(1,(4,2))\": the stride is not congruent to "
            "the shape");
  EXPECT_EQ(error_of([] { (void)cc::parse_layout("(4,x):(1,4)"); }),
            "cute-cpp [layout.notation.syntax]: at position 3 of \"(4,x):(1,4)\": expected an integer or '('");
  EXPECT_EQ(error_of([] { (void)cc::parse_layout("4:1 junk"); }),
            "cute-cpp [layout.notation.syntax]: at position 4 of \"4:1 junk\": unexpected text after the end");
  EXPECT_NE(error_of([] { (void)cc::parse_composed("Sw<3,4> o 0 o 8:1"); }).find("at position 6"), std::string::npos);
  EXPECT_NE(error_of([] { (void)cc::parse_composed("Sw<3,4,2> o 0 o 8:1"); }).find("[layout.swizzle.params]"),
            std::string::npos);
  // Masks past 63 bits were undefined shifts (a fuzz finding); the parser checks before any sum.
  EXPECT_EQ(error_of([] { (void)cc::parse_swizzle("Sw<3,0,22222222222223>"); }),
            std::string(cc::diag::layout_rule_text(cc::diag::LayoutRule::swizzle_params)) +
                ": got B=3, M=0, S=22222222222223");
  EXPECT_NE(error_of([] { (void)cc::parse_swizzle("Sw<3,58,3>"); }).find("M=58"), std::string::npos);
  EXPECT_NE(error_of([] { (void)cc::parse_swizzle("Sw<3,0,-61>"); }).find("S=-61"), std::string::npos);
  EXPECT_EQ(cc::parse_swizzle("Sw<3,57,3>")(1LL << 62), (1LL << 62) ^ (1LL << 59));
  EXPECT_NE(error_of([] { (void)cc::evaluate_layout_expression("nosuch(4:1)"); }).find("unknown op"), std::string::npos);
  // Each integer is under the parser's 2^58 limit, their product is not (a fuzz finding: this was
  // signed overflow); a following evaluation is not affected.
  EXPECT_NE(error_of([] { (void)cc::evaluate_layout_expression("coalesce((33,1,333389333333338948))"); })
                .find("[layout.expression.overflow]"),
            std::string::npos);
  EXPECT_EQ(cc::evaluate_layout_expression("coalesce((33,1,3333))"), "109989:_1");
  // Ops that need integer strides reject ScaledBasis strides here as in the C++ API.
  for (char const* expr : {"right_inverse((4,8):(1@0,1@1))", "left_inverse((4,8):(1@0,1@1))",
                           "max_common_vector((4,8):(1@0,1@1), (4,8):(1,4))"})
    EXPECT_NE(error_of([&] { (void)cc::evaluate_layout_expression(expr); }).find("[layout.basis.unsupported]"),
              std::string::npos)
        << expr;
}

TEST(LayoutExpression, EvaluatesCuTeNotation) {
  EXPECT_EQ(cc::evaluate_layout_expression("logical_divide((8,8):(1,8), (2,4):(1,2))"), "((2,4),8):((1,2),8)");
  EXPECT_EQ(cc::evaluate_layout_expression("composition((6,2):(8,2), (4,3):(3,1))"), "((2,2),3):((24,2),8)");
  EXPECT_EQ(cc::evaluate_layout_expression("size((4,(2,3)):(1,(8,4)))"), "24");
  EXPECT_EQ(cc::evaluate_layout_expression("local_tile((8,8):(1,8), (4,4), (1,0))"), "4 + (4,4):(1,8)");
  EXPECT_EQ(cc::evaluate_layout_expression("local_partition((8,8):(1,8), (2,4):(4,1), 1)"), "8 + (4,2):(2,32)");
  EXPECT_EQ(cc::evaluate_layout_expression("composed_call(Sw<3,4,3> o 0 o (8,64):(64,1), (2,2))"), "146");
  EXPECT_EQ(cc::evaluate_layout_expression("max_common_vector((4,8):(8,1), (4,8):(8,1))"), "32");
}

TEST(LayoutExpression, BatchPrintsOneLinePerExpression) {
  std::istringstream in("size((4,8):(1,4))\ncomposition((6,4):(1,8), 8:1)\n\ncoalesce((2,(1,6)):(1,(6,2)))\n");
  std::ostringstream out;
  EXPECT_EQ(cc::run_layout_batch(in, out), 1);
  std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
  EXPECT_EQ(text.substr(0, 3), "32\n");
  EXPECT_NE(text.find("error: cute-cpp [layout.composition.shape-divisibility]"), std::string::npos);
  EXPECT_NE(text.find("\n\n12:1\n"), std::string::npos);
}

TEST(LayoutPictures, SvgGridSwizzleAndThreadValue) {
  std::string g = cc::to_svg(cc::parse_layout_value("(2,3):(3,1)"));
  EXPECT_EQ(g.rfind("<svg", 0), 0u);
  EXPECT_NE(g.find(">5</text>"), std::string::npos);
  std::string sw = cc::to_svg(cc::parse_composed("Sw<3,4,3> o 0 o (8,64):(64,1)"));
  EXPECT_NE(sw.find("Sw&lt;3,4,3&gt;"), std::string::npos);
  EXPECT_EQ(std::count(sw.begin(), sw.end(), '\n') > 8 * 64, true);
  std::string tv = cc::to_svg_tv(cc::parse_layout_value("(4,2):(1,4)"), 4, 2);
  EXPECT_NE(tv.find("T3V1"), std::string::npos);
  EXPECT_NE(cc::to_svg(cc::parse_swizzle("Sw<2,0,3>")).find("</svg>"), std::string::npos);
}

// Random text never crashes the parser or the evaluator: it parses, or throws invalid_argument.
TEST(LayoutNotation, RandomTextParsesOrThrows) {
  std::mt19937 rng(20261130);
  std::string const alphabet = "()(),,::_0123456789-  Sw<>o";
  int parsed = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text;
    int n = std::uniform_int_distribution<int>(0, 24)(rng);
    for (int i = 0; i < n; ++i) text += alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
    SCOPED_TRACE(text);
    try {
      cc::DynLayout l = cc::parse_layout(text);
      ++parsed;
      EXPECT_EQ(cc::to_string(cc::parse_layout(cc::to_string(l))), cc::to_string(l));
    } catch (std::invalid_argument const&) {
    }
    try {
      (void)cc::parse_tiler(text);
    } catch (std::invalid_argument const&) {
    }
    try {
      (void)cc::evaluate_layout_expression("coalesce(" + text + ")");
    } catch (std::invalid_argument const&) {
    }
  }
  EXPECT_GT(parsed, 0);
  std::string deep(100000, '(');
  EXPECT_NE(error_of([&] { (void)cc::parse_layout(deep); }).find("nested too deeply"), std::string::npos);
  EXPECT_NE(error_of([&] { (void)cc::parse_tiler(deep); }).find("nested too deeply"), std::string::npos);
}
