// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/print.hpp: to_string / operator<< for typed values in CuTe C++ notation (host
// only): `_4` for C<4>, `(4,(2,3)):(1,(8,4))` for layouts, `Sw<3,4,3> o _0 o ...` for composed
// layouts; and parse_layout(), which returns a DynLayout. CuTeDSL: print / str of layouts.
#include <ostream>  // std::ostream
#include <string>   // std::string
#include <cute_cpp/layout/layout.hpp>    // Layout, detail::to_tuple
#include <cute_cpp/layout/notation.hpp>  // value printing and parsing
#include <cute_cpp/layout/swizzle.hpp>   // Swizzle, ComposedLayout

namespace cute_cpp {

template <class T>
  requires(Integer<T> || is_tuple_v<T> || std::is_same_v<T, Underscore>)
inline std::string to_string(T const& x) {
  return to_string(detail::to_tuple(x));
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

/// parse_layout("(4,(2,3)):(1,(8,4))") -> DynLayout. Throws std::invalid_argument
/// [layout.notation.syntax] naming the position on malformed text.
inline DynLayout parse_layout(std::string_view s) { return make_dyn_layout(parse_layout_value(s)); }

}  // namespace cute_cpp
