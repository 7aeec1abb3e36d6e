// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/print.hpp: to_string / operator<< for typed values in CuTe C++ notation (host
// only): `_4` for C<4>, `(4,(2,3)):(1,(8,4))` for layouts, `Sw<3,4,3> o _0 o ...` for composed
// layouts; and parse_layout(), which returns a DynLayout. CuTeDSL: print / str of layouts.
#include <algorithm>  // std::max
#include <ostream>  // std::ostream
#include <string>   // std::string
#include <cute_cpp/layout/layout.hpp>    // Layout, detail::to_tuple
#include <cute_cpp/layout/notation.hpp>  // value printing and parsing
#include <cute_cpp/layout/swizzle.hpp>   // Swizzle, ComposedLayout

namespace cute_cpp {

namespace detail {
template <class T> inline constexpr bool has_layout_v = is_layout_v<T>;
template <class... Ts> inline constexpr bool has_layout_v<Tuple<Ts...>> = (has_layout_v<Ts> || ...);
}  // namespace detail

/// An int tuple `(_4,(2,_3))`, or a tiler with layouts in it `(_3:_4,_8:_1,_)`.
template <class T>
  requires(Integer<T> || is_tuple_v<T> || std::is_same_v<T, Underscore>)
inline std::string to_string(T const& x) {
  if constexpr (detail::has_layout_v<T>) return to_string(detail::to_tiler(x));
  else return to_string(detail::to_tuple(x));
}
template <class S, class D>
inline std::string to_string(Layout<S, D> const& l) {
  return to_string(detail::to_layout(l));
}
template <int B, int M, int S>
inline std::string to_string(Swizzle<B, M, S>) {
  return to_string(SwizzleV{B, M, S});
}
template <class Sw, auto Offset, class L>
inline std::string to_string(ComposedLayout<Sw, Offset, L> const& c) {
  return to_string(ComposedV{Sw::value(), IV{(long long)Offset, true}, detail::to_layout(c.layout())});
}

template <class S, class D>
inline std::ostream& operator<<(std::ostream& os, Layout<S, D> const& l) {
  return os << to_string(l);
}
template <class... Ts>
inline std::ostream& operator<<(std::ostream& os, Tuple<Ts...> const& t) {
  return os << to_string(t);
}
template <auto V>
inline std::ostream& operator<<(std::ostream& os, C<V>) {
  return os << '_' << V;
}
inline std::ostream& operator<<(std::ostream& os, DynTuple const& t) { return os << to_string(t); }

/// to_grid_string(L): a rank-2 layout as a grid of its offsets (row = mode 0, column = mode 1),
/// as CuTe's print_layout; a rank-1 layout prints as one column. See layout_static_test.
template <class L>
inline std::string to_grid_string(L const& l) {
  LV v = detail::to_layout(l);
  detail::LayoutGrid const g =
      detail::layout_grid(v, "cute-cpp [layout.print.rank]: to_grid_string needs a layout of rank 1 or 2, got rank ");
  long long const rows = g.rows, cols = g.cols;
  long long widest = 1;
  for (long long x : g.values) widest = std::max<long long>(widest, (long long)std::to_string(x).size());
  int w = int(widest) + 1;
  auto pad = [](std::string x, int width) { return std::string(std::size_t(std::max<int>(0, width - int(x.size()))), ' ') + x; };
  std::string out = to_string(v) + "\n      ";
  for (long long j = 0; j < cols; ++j) out += pad(std::to_string(j), w + 1) + " ";
  std::string rule = "      +";
  for (long long j = 0; j < cols; ++j) rule += std::string(std::size_t(w + 1), '-') + "+";
  out += "\n" + rule + "\n";
  for (long long i = 0; i < rows; ++i) {
    out += pad(std::to_string(i), 4) + "  |";
    for (long long j = 0; j < cols; ++j) out += pad(std::to_string(g.at(i, j)), w) + " |";
    out += "\n" + rule + "\n";
  }
  return out;
}

/// parse_layout("(4,(2,3)):(1,(8,4))") -> DynLayout. Throws std::invalid_argument
/// [layout.notation.syntax] naming the position on malformed text.
inline DynLayout parse_layout(std::string_view s) { return make_dyn_layout(parse_layout_value(s)); }

}  // namespace cute_cpp
