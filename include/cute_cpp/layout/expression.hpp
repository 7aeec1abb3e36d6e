// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/expression.hpp: evaluates `op(arg, ...)` with arguments in notation and prints
// the result in notation (host only). This is the engine of `cute-cpp layout` and of the
// reference-vector tests: every op of shared/layout-vectors plus local_tile, local_partition,
// max_common_vector, max_common_layout, tile_to_shape and make_layout_right.
#include <stdexcept>    // std::invalid_argument
#include <istream>      // std::istream
#include <optional>     // std::optional
#include <ostream>      // std::ostream
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <utility>      // std::move
#include <vector>       // std::vector
#include <cute_cpp/layout/notation.hpp>  // parse_*, to_string
#include <cute_cpp/layout/ops.hpp>       // the ops' argument checks (ScaledBasis strides)

namespace cute_cpp {

/// Throws std::invalid_argument with the rule's text and values when e holds an error.
inline void throw_if_error(diag::LayoutError const& e) {
  if (!e) return;
  throw std::invalid_argument(std::string(diag::layout_rule_text(e.rule)) + ": got " + std::to_string(e.a) +
                              ", " + std::to_string(e.b));
}

namespace detail {
inline std::string iv_string(IV x, bool marks) { return (marks && x.s ? "_" : "") + std::to_string(x.v); }
inline bool has_top_level_colon(std::string_view s) {
  int d = 0;
  for (char c : s) {
    if (c == '(') ++d;
    else if (c == ')') --d;
    else if (c == ':' && d == 0) return true;
  }
  return false;
}
/// Splits "a, (b,c), d" at top-level commas.
inline std::vector<std::string> split_args(std::string_view s) {
  std::vector<std::string> out;
  int d = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '<') ++d;
    else if (c == ')' || c == '>') --d;
    else if (c == ',' && d == 0) {
      out.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  if (s.find_first_not_of(" \t") != std::string_view::npos) out.emplace_back(s.substr(start));
  for (auto& a : out) {
    std::size_t b = a.find_first_not_of(" \t");
    std::size_t e = a.find_last_not_of(" \t");
    a = b == std::string::npos ? std::string() : a.substr(b, e - b + 1);
  }
  return out;
}
inline void need_args(std::string_view op, std::vector<std::string> const& args, std::size_t lo, std::size_t hi) {
  if (args.size() < lo || args.size() > hi)
    throw std::invalid_argument("cute-cpp [layout.expression.arity]: " + std::string(op) + " takes " +
                                std::to_string(lo) + (lo == hi ? "" : " to " + std::to_string(hi)) +
                                " arguments, got " + std::to_string(args.size()));
}
inline LV layout_arg(std::string const& s) {
  if (!has_top_level_colon(s)) {
    // An integer or shape alone stands for its compact column-major layout, as in CuTe.
    return eng::make_layout_left(parse_int_tuple(s));
  }
  return parse_layout_value(s);
}
inline IV int_arg(std::string const& s) {
  DynTuple t = parse_int_tuple(s);
  if (!t.is_leaf() || t.is_underscore())
    throw std::invalid_argument("cute-cpp [layout.expression.argument]: expected an integer, got \"" + s + "\"");
  return t.value();
}
inline std::string slice_string(eng::SliceResult const& r, bool marks) {
  return iv_string(r.offset, marks) + " + " + to_string(r.layout, marks);
}
}  // namespace detail

namespace detail {
inline std::string evaluate_layout_op_unchecked(std::string_view op, std::vector<std::string> const& args, bool marks);
}  // namespace detail

/// evaluate_layout_op("composition", {"(6,2):(8,2)", "(4,3):(3,1)"}) -> "((2,2),3):((24,2),8)".
/// Throws std::invalid_argument (rule id and values) on a bad argument or a broken rule, and
/// [layout.expression.overflow] when a value on the way does not fit 64 bits.
inline std::string evaluate_layout_op(std::string_view op, std::vector<std::string> const& args, bool marks = true) {
  dt::arithmetic_overflowed() = false;
  std::string out = detail::evaluate_layout_op_unchecked(op, args, marks);
  if (dt::arithmetic_overflowed()) {
    dt::arithmetic_overflowed() = false;
    throw std::invalid_argument("cute-cpp [layout.expression.overflow]: " + std::string(op) +
                                ": a value on the way does not fit 64 bits (the arguments are too large)");
  }
  return out;
}

namespace detail {
/// The constructors and queries (make_layout(_right), print, shape, stride, size, cosize, rank,
/// depth); none for another op.
inline std::optional<std::string> evaluate_query_op(std::string_view op, std::vector<std::string> const& args,
                                            bool marks, diag::LayoutError& e) {
  if (op == "make_layout") {
    need_args(op, args, 1, 1);
    return to_string(eng::make_layout_left(parse_int_tuple(args[0])), marks);
  }
  if (op == "make_layout_right") {
    need_args(op, args, 1, 1);
    return to_string(eng::make_layout_right(parse_int_tuple(args[0])), marks);
  }
  if (op == "print") {
    need_args(op, args, 1, 1);
    return to_string(layout_arg(args[0]), marks);
  }
  if (op == "shape" || op == "stride") {
    need_args(op, args, 1, 1);
    LV l = layout_arg(args[0]);
    return to_string(op == "shape" ? l.shape : l.stride, marks);
  }
  if (op == "size" || op == "cosize" || op == "rank" || op == "depth") {
    need_args(op, args, 1, 1);
    LV l = layout_arg(args[0]);
    if (op == "size") return iv_string(eng::size(l), marks);
    if (op == "rank") return std::to_string(eng::rank(l));
    if (op == "depth") return std::to_string(dt::depth(l.shape));
    IV c = eng::cosize(l, e);
    throw_if_error(e);
    return iv_string(c, marks);
  }
  return std::nullopt;
}

/// A layout's or shape's coordinates (call, with slices; crd2idx, idx2crd); none for another op.
inline std::optional<std::string> evaluate_coordinate_op(std::string_view op, std::vector<std::string> const& args,
                                            bool marks, diag::LayoutError& e) {
  if (op == "call" || op == "call_coord") {
    need_args(op, args, 2, 2);
    LV l = layout_arg(args[0]);
    DynTuple c = parse_int_tuple(args[1]);
    eng::check_coord(c, l.shape, e);
    throw_if_error(e);
    bool has_us = false;
    for (int i = 0; i < c.n; ++i) has_us = has_us || (c.node[i].kind < 0 && (c.node[i].flags & flag_underscore));
    if (has_us) {
      eng::SliceResult r = eng::slice_and_offset(c, l, e);
      throw_if_error(e);
      return slice_string(r, marks);
    }
    IV r = eng::eval(l, c, e);
    throw_if_error(e);
    return iv_string(r, marks);
  }
  if (op == "crd2idx") {
    need_args(op, args, 2, 3);
    DynTuple c = parse_int_tuple(args[0]);
    DynTuple sh = parse_int_tuple(args[1]);
    DynTuple st = args.size() == 3 ? parse_int_tuple(args[2]) : dt::prefix_product(sh);
    if (!dt::congruent(sh, st)) e.set(diag::LayoutRule::congruent, sh.n, st.n);
    eng::check_coord(c, sh, e);
    throw_if_error(e);
    IV r = eng::crd2idx(c, sh, st, e);
    throw_if_error(e);
    return iv_string(r, marks);
  }
  if (op == "idx2crd") {
    need_args(op, args, 2, 3);
    IV i = int_arg(args[0]);
    DynTuple sh = parse_int_tuple(args[1]);
    if (args.size() == 3) return to_string(eng::idx2crd_strided(i, sh, parse_int_tuple(args[2])), marks);
    return to_string(eng::idx2crd(i, sh), marks);
  }
  return std::nullopt;
}

/// The algebra (coalesce, filter, flatten, composition, complement, the inverses, the divides and
/// products, max_common_*); none for another op.
inline std::optional<std::string> evaluate_algebra_op(std::string_view op, std::vector<std::string> const& args,
                                            bool marks, diag::LayoutError& e) {
  auto unary = [&](auto f) {
    need_args(op, args, 1, 1);
    LV r = f(layout_arg(args[0]));
    throw_if_error(e);
    return to_string(r, marks);
  };
  auto binary = [&](auto f) {
    need_args(op, args, 2, 2);
    LV r = f(layout_arg(args[0]), parse_tiler(args[1]));
    throw_if_error(e);
    return to_string(r, marks);
  };
  if (op == "coalesce" || op == "filter") {
    need_args(op, args, 1, 2);
    LV l = layout_arg(args[0]);
    LV r;
    if (args.size() == 2) {
      DynTuple p = parse_int_tuple(args[1]);
      r = op == "coalesce" ? eng::coalesce(l, p, e) : eng::filter(l, p, e);
    } else {
      r = op == "coalesce" ? eng::coalesce(l) : eng::filter(l);
    }
    throw_if_error(e);
    return to_string(r, marks);
  }
  if (op == "flatten") return unary([](LV const& l) { return eng::flatten(l); });
  if (op == "composition") return binary([&](LV const& a, LV const& b) { return eng::composition(a, b, e); });
  if (op == "complement") {
    need_args(op, args, 1, 2);
    LV a = layout_arg(args[0]);
    LV r = args.size() == 2 ? eng::complement(a, int_arg(args[1]), e) : eng::complement(a, e);
    throw_if_error(e);
    return to_string(r, marks);
  }
  if (op == "right_inverse") return unary([&](LV const& l) { return detail::RightInverseOp{}(l, e); });
  if (op == "left_inverse") return unary([&](LV const& l) { return detail::LeftInverseOp{}(l, e); });
  if (op == "logical_divide") return binary([&](LV const& a, LV const& b) { return eng::logical_divide(a, b, e); });
  if (op == "zipped_divide") return binary([&](LV const& a, LV const& b) { return eng::zipped_divide(a, b, e); });
  if (op == "tiled_divide") return binary([&](LV const& a, LV const& b) { return eng::tiled_divide(a, b, e); });
  if (op == "flat_divide") return binary([&](LV const& a, LV const& b) { return eng::flat_divide(a, b, e); });
  if (op == "logical_product") return binary([&](LV const& a, LV const& b) { return eng::logical_product(a, b, e); });
  if (op == "zipped_product") return binary([&](LV const& a, LV const& b) { return eng::zipped_product(a, b, e); });
  if (op == "tiled_product") return binary([&](LV const& a, LV const& b) { return eng::tiled_product(a, b, e); });
  if (op == "flat_product") return binary([&](LV const& a, LV const& b) { return eng::flat_product(a, b, e); });
  if (op == "blocked_product") return binary([&](LV const& a, LV const& b) { return eng::blocked_product(a, b, e); });
  if (op == "raked_product") return binary([&](LV const& a, LV const& b) { return eng::raked_product(a, b, e); });
  if (op == "max_common_layout") return binary([&](LV const& a, LV const& b) { return eng::max_common_layout(a, b, e); });
  if (op == "max_common_vector") {
    need_args(op, args, 2, 2);
    IV r = detail::MaxCommonVectorOp{}(layout_arg(args[0]), layout_arg(args[1]), e);
    throw_if_error(e);
    return iv_string(r, marks);
  }
  return std::nullopt;
}

/// Tiling, partitioning and swizzles (tile_to_shape, local_tile, local_partition, swizzle,
/// composed_call); none for another op.
inline std::optional<std::string> evaluate_tiling_op(std::string_view op, std::vector<std::string> const& args,
                                            bool marks, diag::LayoutError& e) {
  if (op == "tile_to_shape") {
    need_args(op, args, 2, 3);
    DynTuple order = args.size() == 3 ? parse_int_tuple(args[2]) : DynTuple{};
    LV r = eng::tile_to_shape(layout_arg(args[0]), parse_int_tuple(args[1]), args.size() == 3 ? &order : nullptr, e);
    throw_if_error(e);
    return to_string(r, marks);
  }
  if (op == "local_tile") {
    need_args(op, args, 3, 3);
    eng::SliceResult r = eng::local_tile(layout_arg(args[0]), parse_tiler(args[1]), parse_int_tuple(args[2]), e);
    throw_if_error(e);
    return slice_string(r, marks);
  }
  if (op == "local_partition") {
    need_args(op, args, 3, 3);
    eng::SliceResult r = eng::local_partition(layout_arg(args[0]), layout_arg(args[1]), int_arg(args[2]), e);
    throw_if_error(e);
    return slice_string(r, marks);
  }
  if (op == "swizzle") {
    need_args(op, args, 2, 2);
    return std::to_string(parse_swizzle(args[0])(int_arg(args[1]).v));
  }
  if (op == "composed_call") {
    need_args(op, args, 2, 2);
    ComposedV c = parse_composed(args[0]);
    DynTuple crd = parse_int_tuple(args[1]);
    eng::check_coord(crd, c.layout.shape, e);
    IV r = eng::eval(c.layout, crd, e);
    throw_if_error(e);
    return std::to_string(c.swizzle(c.offset.v + r.v));
  }
  return std::nullopt;
}

}  // namespace detail

inline std::string detail::evaluate_layout_op_unchecked(std::string_view op, std::vector<std::string> const& args,
                                                        bool marks) {
  diag::LayoutError e;
  for (auto* group : {&evaluate_query_op, &evaluate_coordinate_op, &evaluate_algebra_op, &evaluate_tiling_op})
    if (std::optional<std::string> out = group(op, args, marks, e)) return *std::move(out);
  throw std::invalid_argument("cute-cpp [layout.expression.op]: unknown op \"" + std::string(op) + "\"");
}

/// evaluate_layout_expression("logical_divide((8,8):(1,8), (2,4):(1,2))").
inline std::string evaluate_layout_expression(std::string_view expr, bool marks = true) {
  std::size_t b = expr.find_first_not_of(" \t");
  std::size_t open = expr.find('(');
  std::size_t close = expr.find_last_of(')');
  if (b == std::string_view::npos || open == std::string_view::npos || close == std::string_view::npos || close < open)
    throw std::invalid_argument("cute-cpp [layout.notation.syntax]: at position 0 of \"" + std::string(expr) +
                                "\": expected op(arg, ...)");
  if (expr.find_first_not_of(" \t", close + 1) != std::string_view::npos)
    notation::syntax_error(expr, close + 1, "unexpected text after the end");
  std::string_view op = expr.substr(b, open - b);
  while (!op.empty() && (op.back() == ' ' || op.back() == '\t')) op.remove_suffix(1);
  return evaluate_layout_op(op, detail::split_args(expr.substr(open + 1, close - open - 1)), marks);
}

/// `cute-cpp layout --batch`: one expression a line from in, exactly one line a line to out (the
/// result, or `error: <message>`; an empty line gives an empty line). Returns the error count.
inline int run_layout_batch(std::istream& in, std::ostream& out, bool marks = true) {
  int errors = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      out << "\n";
      continue;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    try {
      out << evaluate_layout_expression(line, marks) << "\n";
    } catch (std::exception const& e) {
      ++errors;
      out << "error: " << e.what() << "\n";
    }
  }
  return errors;
}

}  // namespace cute_cpp
