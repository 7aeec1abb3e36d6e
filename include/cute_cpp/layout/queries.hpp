// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/queries.hpp: what a layout is and where it sends a coordinate (CuTeDSL:
// cute.size, cute.cosize, cute.rank, cute.depth, cute.get, shape, stride, layout<I>, cute.crd2idx,
// cute.idx2crd and the layout call L(crd)); layout equality, compatible and congruent.
#include <cstddef>      // std::size_t
#include <cstdint>      // int64_t
#include <type_traits>  // std::remove_cvref_t
#include <cute_cpp/config.hpp>               // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>          // mode_index
#include <cute_cpp/layout/apply.hpp>         // detail::apply, to_layout, to_tuple, is_typed_v
#include <cute_cpp/layout/dyn_tuple.hpp>     // DynTuple, dt::
#include <cute_cpp/layout/engine.hpp>        // eng::compatible, LV
#include <cute_cpp/layout/layout_type.hpp>   // Layout (its call operator is defined here)
#include <cute_cpp/layout/ops.hpp>           // ProductOp, CosizeOp, ModeOp, Crd2Idx*Op, Idx2Crd*Op, EvalOp, SliceOp
#include <cute_cpp/layout/tuple.hpp>         // get, crd2idx_typed, eval_typed, product_typed

namespace cute_cpp {

// ---- size, cosize, rank, depth, shape, stride ----

/// size(L) or size(shape): the number of coordinates. size(RowMajor<4,8>{}) -> C<32>
/// A static shape gives a C<> even when the stride is dynamic; a typed dynamic one is a fold.
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto size(L const& l) {
  if constexpr (is_layout_v<L>) {
    return size(l.shape());
  } else if constexpr (detail::is_typed_v<L> && !is_static_v<L>) {
    return detail::product_typed(l);
  } else {
    return detail::apply<detail::ProductOp>(l);
  }
}
/// size<I...>(L): the size of mode I (of mode J of mode I, ...). size<1>((4,(2,3)):(1,(8,4))) -> 6
template <int I, int... Is, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto size(L const& l) {
  if constexpr (is_layout_v<L>) return size(shape<I, Is...>(l));
  else if constexpr (detail::is_typed_v<L>) return size(get<I, Is...>(l));
  else {
    DynTuple t = dt::get(l, I);
    ((t = dt::get(t, Is)), ...);
    return size(t);
  }
}
template <class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto product(T const& t) {
  return size(t);
}
/// cosize(L) = L(size(L) - 1) + 1.
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto cosize(L const& l) {
  if constexpr (!is_static_v<L> && detail::is_typed_v<typename L::shape_type> &&
                detail::is_typed_v<typename L::stride_type>) {
    return detail::crd2idx_typed(std::int64_t(size(l)) - 1, l.shape(), l.stride()) + 1;
  } else {
    return detail::apply<detail::CosizeOp>(l);
  }
}
/// rank(L): the number of top-level modes (1 for an integer shape).
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto rank(L const& l) {
  if constexpr (is_layout_v<L>) {
    if constexpr (detail::is_typed_v<typename L::shape_type>) return C<tuple_rank_v<typename L::shape_type>>{};
    else return l.shape().rank();
  } else if constexpr (detail::is_typed_v<L>) {
    return C<tuple_rank_v<L>>{};
  } else {
    return l.rank();
  }
}
/// depth(L): 0 for an integer shape, 1 + the deepest mode for a tuple.
template <class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto depth(L const& l) {
  if constexpr (is_layout_v<L>) {
    if constexpr (detail::is_typed_v<typename L::shape_type>) return C<dt::depth(detail::to_tuple(typename L::shape_type{}))>{};
    else return dt::depth(l.shape());
  } else if constexpr (detail::is_typed_v<L>) {
    return C<dt::depth(detail::to_tuple(L{}))>{};
  } else {
    return dt::depth(l);
  }
}
/// layout<I>(L): mode I as a layout (static I; a mode index out of range is an error).
template <int I, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto layout(L const& l) {
  if constexpr (is_layout_v<L> && detail::is_typed_v<typename L::shape_type> && detail::is_typed_v<typename L::stride_type>) {
    static_assert(diag::mode_index<I, tuple_rank_v<typename L::shape_type>>::ok);
    return Layout<std::remove_cvref_t<decltype(get<I>(l.shape()))>, std::remove_cvref_t<decltype(get<I>(l.stride()))>>(
        get<I>(l.shape()), get<I>(l.stride()));
  } else {
    return detail::apply<detail::ModeOp<I>>(l);
  }
}
/// shape(L), shape<I...>(L): the shape or one of its modes. shape<1>((4,(2,3)):(..)) -> (2,3)
template <int... Is, class L>
[[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) shape(L const& l) {
  if constexpr (sizeof...(Is) == 0) return l.shape();
  else if constexpr (detail::is_typed_v<typename L::shape_type>) return get<Is...>(l.shape());
  else {
    DynTuple t = l.shape();
    ((t = dt::get(t, Is)), ...);
    return t;
  }
}
template <int... Is, class L>
[[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) stride(L const& l) {
  if constexpr (sizeof...(Is) == 0) return l.stride();
  else if constexpr (detail::is_typed_v<typename L::stride_type>) return get<Is...>(l.stride());
  else {
    DynTuple t = l.stride();
    ((t = dt::get(t, Is)), ...);
    return t;
  }
}

/// get<I>(L): mode I as a layout, as layout<I>(L).
template <std::size_t I, class S, class D>
[[nodiscard]] CUTE_CPP_HD constexpr auto get(Layout<S, D> const& l) {
  return layout<int(I)>(l);
}

// ---- coordinates ----

/// crd2idx(crd, shape, stride): the offset of a coordinate. crd2idx((1,2), (4,8), (1,4)) -> 9
template <class Crd, class S, class D>
[[nodiscard]] CUTE_CPP_HD constexpr auto crd2idx(Crd const& c, S const& s, D const& d) {
  if constexpr (!(is_static_v<Crd> && is_static_v<S> && is_static_v<D>) && detail::is_typed_v<Crd> &&
                detail::is_typed_v<S> && detail::is_typed_v<D>) {
    return detail::crd2idx_typed(c, s, d);
  } else {
    return detail::apply<detail::Crd2IdxOp>(c, s, d);
  }
}
/// crd2idx(crd, shape): with compact column-major strides.
template <class Crd, class S>
[[nodiscard]] CUTE_CPP_HD constexpr auto crd2idx(Crd const& c, S const& s) {
  return detail::apply<detail::Crd2IdxCompactOp>(c, s);
}
/// idx2crd(idx, shape): the natural coordinate. idx2crd(5, (2,(2,2))) -> (1,(0,1))
template <class I, class S>
[[nodiscard]] CUTE_CPP_HD constexpr auto idx2crd(I const& i, S const& s) {
  return detail::apply<detail::Idx2CrdOp>(i, s);
}
/// idx2crd(idx, shape, stride): each leaf (idx / stride) % shape.
template <class I, class S, class D>
[[nodiscard]] CUTE_CPP_HD constexpr auto idx2crd(I const& i, S const& s, D const& d) {
  return detail::apply<detail::Idx2CrdStridedOp>(i, s, d);
}

template <class ShapeT, class StrideT>
template <class Crd>
CUTE_CPP_HD constexpr auto Layout<ShapeT, StrideT>::operator()(Crd const& crd) const {
  if constexpr (detail::has_underscore_v<Crd>) {
    return detail::apply<detail::SliceOp>(crd, *this);
  } else if constexpr (detail::has_basis_v<StrideT>) {
    return detail::eval_typed(crd, shape_, stride_);
  } else if constexpr (is_static_v<Crd> && is_static_v<Layout>) {
    return detail::apply<detail::EvalOp>(*this, crd);
  } else if constexpr (detail::is_typed_v<Crd> && detail::is_typed_v<ShapeT> && detail::is_typed_v<StrideT>) {
    return detail::crd2idx_typed(crd, shape_, stride_);
  } else {
    return detail::apply<detail::EvalOp>(*this, crd);
  }
}

// ---- equality, compatible, congruent ----

/// Layouts are equal when their shapes and strides hold the same values (static marks aside).
template <class S0, class D0, class S1, class D1>
[[nodiscard]] CUTE_CPP_HD constexpr bool operator==(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  LV x = detail::to_layout(a), y = detail::to_layout(b);
  if (!dt::congruent(x.shape, y.shape)) return false;
  for (int i = 0; i < x.shape.n; ++i)
    if (x.shape.node[i].v != y.shape.node[i].v || x.stride.node[i].v != y.stride.node[i].v ||
        x.stride.node[i].tag != y.stride.node[i].tag)
      return false;
  return true;
}
/// compatible(A, B): every coordinate of A is a coordinate of B (layouts or shapes).
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr bool compatible(A const& a, B const& b) {
  DynTuple x, y;
  if constexpr (is_layout_v<A>) x = detail::to_layout(a).shape; else x = detail::to_tuple(a);
  if constexpr (is_layout_v<B>) y = detail::to_layout(b).shape; else y = detail::to_tuple(b);
  return eng::compatible(x, 0, y, 0);
}
/// congruent(A, B): the same tree (layouts or tuples).
template <class A, class B>
[[nodiscard]] CUTE_CPP_HD constexpr bool congruent(A const& a, B const& b) {
  DynTuple x, y;
  if constexpr (is_layout_v<A>) x = detail::to_layout(a).shape; else x = detail::to_tuple(a);
  if constexpr (is_layout_v<B>) y = detail::to_layout(b).shape; else y = detail::to_tuple(b);
  return dt::congruent(x, y);
}

}  // namespace cute_cpp
