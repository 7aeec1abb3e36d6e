// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/layout_type.hpp: the type Layout<Shape, Stride> (CuTeDSL: cute.Layout), DynLayout,
// RowMajor / ColMajor, the LayoutLeft / LayoutRight tags, rank_v and is_layout_v. Layout's call
// operator L(crd) is defined in queries.hpp; include layout.hpp for the algebra.
#include <cute_cpp/config.hpp>            // CUTE_CPP_HD
#include <cute_cpp/layout/dyn_tuple.hpp>  // DynTuple
#include <cute_cpp/layout/tuple.hpp>      // Tuple, Shape, Stride, C, detail::compact_left_t

namespace cute_cpp {

// ---- Layout ----

/// A layout: a shape and a congruent stride, a function from coordinates to offsets.
///   Layout<Shape<C<4>, C<8>>, Stride<C<8>, C<1>>>   prints  (_4,_8):(_8,_1)
/// Shape/Stride may mix C<> and int, or be DynTuple (a run-time layout, DynLayout). The stride
/// defaults to the compact column-major one: Layout<Shape<C<4>, C<8>>> is (_4,_8):(_1,_4).
template <class ShapeT, class StrideT = detail::compact_left_t<ShapeT>>
struct Layout {
  using shape_type = ShapeT;
  using stride_type = StrideT;
  [[no_unique_address]] ShapeT shape_{};
  [[no_unique_address]] StrideT stride_{};

  Layout() = default;
  CUTE_CPP_HD constexpr Layout(ShapeT const& s, StrideT const& d) : shape_(s), stride_(d) {}

  CUTE_CPP_HD constexpr ShapeT const& shape() const noexcept { return shape_; }
  CUTE_CPP_HD constexpr StrideT const& stride() const noexcept { return stride_; }

  /// L(crd): the offset of a coordinate (an integer, congruent, or weakly congruent tuple).
  /// Static layout and static coordinate: a C<> (out of range is a compile error).
  template <class Crd>
  CUTE_CPP_HD constexpr auto operator()(Crd const& crd) const;
  template <class C0, class C1, class... Cs>
  CUTE_CPP_HD constexpr auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(Tuple<C0, C1, Cs...>(c0, c1, cs...));
  }
};

using DynLayout = Layout<DynTuple, DynTuple>;

/// rank_v<L>: the number of top-level modes of a typed layout or tuple (1 for an integer).
template <class T> inline constexpr int rank_v = tuple_rank_v<T>;
template <class S, class D> inline constexpr int rank_v<Layout<S, D>> = tuple_rank_v<S>;

template <class T> inline constexpr bool is_layout_v = false;
template <class S, class D> inline constexpr bool is_layout_v<Layout<S, D>> = true;
template <class S, class D> inline constexpr bool is_static_v<Layout<S, D>> = is_static_v<S> && is_static_v<D>;

/// Row-major and column-major M x N layouts: RowMajor<4, 8> = (_4,_8):(_8,_1).
template <int M, int N> using RowMajor = Layout<Shape<C<M>, C<N>>, Stride<C<N>, C<1>>>;
template <int M, int N> using ColMajor = Layout<Shape<C<M>, C<N>>, Stride<C<1>, C<M>>>;

/// Tags for make_layout(shape, tag).
struct LayoutLeft {};
struct LayoutRight {};

}  // namespace cute_cpp
