// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/swizzle.hpp: Swizzle<B, M, S> (a bijection on offsets: XOR the B bits at
// M + S into the B bits at M) and ComposedLayout<Swizzle, Offset, Layout>, evaluated as
// sw(offset + layout(crd)). CuTeDSL: cute.make_swizzle, cute.make_composed_layout.
#include <cstdint>  // int64_t
#include <cute_cpp/config.hpp>          // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>     // swizzle_params
#include <cute_cpp/layout/layout.hpp>   // Layout, size, cosize
#include <cute_cpp/layout/notation.hpp> // SwizzleV

namespace cute_cpp {

/// Swizzle<B, M, S>: offset ^ ((offset & yyy_mask) >> S), yyy_mask = ((1<<B)-1) << (M + max(0,S)).
///   Swizzle<3,4,3>{}(0x80) == 0x80 ^ 0x10 == 0x90        printed Sw<3,4,3>
/// @pre B >= 0, M >= 0, |S| >= B, B + M + |S| <= 63  [layout.swizzle.params]
/// @post a bijection on [0, 2^(B+M+|S|)), its own inverse
template <int B, int M, int S>
struct Swizzle {
  static_assert(diag::swizzle_params<B, S>::ok && M >= 0);
  static_assert(B + M + (S < 0 ? -S : S) <= 63,
                "cute-cpp [layout.swizzle.params]: Swizzle<B, M, S> needs B >= 0, M >= 0, |S| >= B and B + M + |S| <= 63 (B, M, S)");
  static constexpr int bits = B;
  static constexpr int base = M;
  static constexpr int shift = S;
  static constexpr std::int64_t bit_mask = (std::int64_t(1) << B) - 1;
  static constexpr std::int64_t yyy_mask = bit_mask << (M + (S > 0 ? S : 0));
  static constexpr std::int64_t zzz_mask = bit_mask << (M - (S < 0 ? S : 0));

  template <class I>
  CUTE_CPP_HD constexpr auto operator()(I const& offset) const noexcept {
    if constexpr (is_constant_int_v<I>) {
      return C<SwizzleV{B, M, S}((long long)I::value)>{};
    } else {
      std::int64_t o = std::int64_t(offset);
      std::int64_t sel = o & yyy_mask;
      if constexpr (S >= 0) return o ^ (sel >> S);
      else return o ^ (sel << -S);
    }
  }
  /// The run-time form.
  static constexpr SwizzleV value() noexcept { return SwizzleV{B, M, S}; }
  /// size = cosize = 2^(B + M + |S|).
  static constexpr std::int64_t size() noexcept { return std::int64_t(1) << (B + M + (S < 0 ? -S : S)); }
};
template <int B, int M, int S> inline constexpr bool is_static_v<Swizzle<B, M, S>> = true;

/// ComposedLayout<Sw, Offset, L>: crd -> Sw(Offset + L(crd)). Printed `Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`.
///   using ASmem = ComposedLayout<Swizzle<3,3,3>, 0, RowMajor<128,64>>;
template <class Sw, auto Offset, class L>
struct ComposedLayout {
  using swizzle_type = Sw;
  using layout_type = L;
  static constexpr auto offset = Offset;
  [[no_unique_address]] L layout_{};

  ComposedLayout() = default;
  CUTE_CPP_HD constexpr explicit ComposedLayout(L const& l) : layout_(l) {}

  CUTE_CPP_HD constexpr L const& layout() const noexcept { return layout_; }
  CUTE_CPP_HD constexpr Sw swizzle() const noexcept { return {}; }

  template <class... Crd>
  CUTE_CPP_HD constexpr auto operator()(Crd const&... crd) const {
    auto idx = layout_(crd...);
    if constexpr (is_constant_int_v<decltype(idx)>) return Sw{}(C<Offset + decltype(idx)::value>{});
    else return Sw{}(std::int64_t(Offset) + std::int64_t(idx));
  }
};
template <class Sw, auto Offset, class L>
inline constexpr bool is_static_v<ComposedLayout<Sw, Offset, L>> = is_static_v<L>;

template <class Sw, auto Offset, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto size(ComposedLayout<Sw, Offset, L> const& c) {
  return size(c.layout());
}
template <class Sw, auto Offset, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto rank(ComposedLayout<Sw, Offset, L> const& c) {
  return rank(c.layout());
}

/// make_composed_layout(Swizzle<3,3,3>{}, C<0>{}, RowMajor<8,64>{}).
template <int B, int M, int S, auto Off, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto make_composed_layout(Swizzle<B, M, S>, C<Off>, L const& l) {
  return ComposedLayout<Swizzle<B, M, S>, Off, L>(l);
}

// ---- the algebra on composed layouts: applied to the inner layout; swizzle and offset stay ----

namespace detail {
template <class Sw, auto Offset, class L>
CUTE_CPP_HD constexpr auto rewrap(L const& inner) {
  return ComposedLayout<Sw, Offset, L>(inner);
}
}  // namespace detail

/// composition(Sw o off o L, B) = Sw o off o composition(L, B): how a swizzled smem layout is
/// tiled. The same holds for the divides, coalesce and tile_to_shape below.
template <class Sw, auto Offset, class L, class B>
[[nodiscard]] CUTE_CPP_HD constexpr auto composition(ComposedLayout<Sw, Offset, L> const& a, B const& b) {
  return detail::rewrap<Sw, Offset>(composition(a.layout(), b));
}
template <class Sw, auto Offset, class L, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto logical_divide(ComposedLayout<Sw, Offset, L> const& a, T const& t) {
  return detail::rewrap<Sw, Offset>(logical_divide(a.layout(), t));
}
template <class Sw, auto Offset, class L, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto zipped_divide(ComposedLayout<Sw, Offset, L> const& a, T const& t) {
  return detail::rewrap<Sw, Offset>(zipped_divide(a.layout(), t));
}
template <class Sw, auto Offset, class L, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto tiled_divide(ComposedLayout<Sw, Offset, L> const& a, T const& t) {
  return detail::rewrap<Sw, Offset>(tiled_divide(a.layout(), t));
}
template <class Sw, auto Offset, class L, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto flat_divide(ComposedLayout<Sw, Offset, L> const& a, T const& t) {
  return detail::rewrap<Sw, Offset>(flat_divide(a.layout(), t));
}
template <class Sw, auto Offset, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto coalesce(ComposedLayout<Sw, Offset, L> const& a) {
  return detail::rewrap<Sw, Offset>(coalesce(a.layout()));
}
/// tile_to_shape(Sw o off o atom, shape): the swizzled smem layout of a whole tile / pipeline.
///   tile_to_shape(Sw<3,4,3> o _0 o (_8,_64):(_64,_1), (_128,_64,_3))
///     -> Sw<3,4,3> o _0 o ((_8,_16),(_64,_1),(_1,_3)):((_64,_512),(_1,_0),(_0,_8192))
template <class Sw, auto Offset, class L, class S>
[[nodiscard]] CUTE_CPP_HD constexpr auto tile_to_shape(ComposedLayout<Sw, Offset, L> const& a, S const& shape) {
  return detail::rewrap<Sw, Offset>(tile_to_shape(a.layout(), shape));
}
template <class Sw, auto Offset, class L, class S, class O>
[[nodiscard]] CUTE_CPP_HD constexpr auto tile_to_shape(ComposedLayout<Sw, Offset, L> const& a, S const& shape,
                                                       O const& order) {
  return detail::rewrap<Sw, Offset>(tile_to_shape(a.layout(), shape, order));
}

/// A composed layout with run-time pieces (e.g. parsed): crd -> sw(offset + layout(crd)).
CUTE_CPP_HD constexpr long long evaluate(ComposedV const& c, DynTuple const& crd) {
  diag::LayoutError e;
  IV r = eng::eval(c.layout, crd, e);
  detail::raise_dynamic(e);
  return c.swizzle(c.offset.v + r.v);
}

}  // namespace cute_cpp
