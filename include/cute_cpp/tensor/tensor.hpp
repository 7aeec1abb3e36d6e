// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Tensor views: a pointer into global, shared or register memory and a layout (static, mixed or
// dynamic). Tensor<T, L> reads, TensorMut<T, L> also writes; both are TensorView<E, L> with E
// const or not. CuTeDSL: cute.Tensor, cute.make_tensor, tensor[crd] / slicing with None (`_`),
// cute.local_tile, cute.zipped_divide (and logical/tiled/flat_divide), cute.local_partition,
// cute.flatten, cute.coalesce, cute.make_rmem_tensor, cute.make_fragment_like, Tensor.load / Tensor.store.
#include <cute_cpp/config.hpp>          // CUTE_CPP_HD
#include <cute_cpp/diag/tensor.hpp>     // tensor_static_size
#include <cute_cpp/layout/layout.hpp>   // Layout, slice, local_tile, divides, local_partition
#include <cute_cpp/tensor/register_tile.hpp>  // RegisterTile (what load() returns)

#include <cstdint>
#include <type_traits>
#include <utility>

namespace cute_cpp {

namespace detail {
template <class L> CUTE_CPP_HD constexpr auto typed_slice(L const& l, auto const& crd);
template <class L, class Crd> CUTE_CPP_HD constexpr bool use_typed_slice();

/// True when mode Mode of layout L has the static stride 1 (a contiguous mode).
template <class L, int Mode>
CUTE_CPP_HD constexpr bool mode_unit() {
  using D = std::remove_cvref_t<decltype(std::declval<L const&>().stride())>;
  if constexpr (!is_tuple_v<D>) return false;
  else return std::is_same_v<std::remove_cvref_t<decltype(get<Mode>(D{}))>, C<1>>;
}
}  // namespace detail

// ---- TensorView ----

/// A view of memory through a layout: element crd lives at ptr[layout(crd)]. E is `T const`
/// (Tensor) or `T` (TensorMut). Views are cheap values: a pointer and the layout's dynamic parts.
///   auto gX = make_tensor(x, make_layout(make_shape(rows, C<4096>{}), LayoutRight{}));  // (rows,4096)
///   gX(7, 3)        -> x[7 * 4096 + 3]
///   gX(7, _)        -> the row, a (4096):(1) view at x + 7 * 4096
template <class E, class L>
class TensorView {
 public:
  using element_type = E;
  using value_type = std::remove_cv_t<E>;
  using layout_type = L;

  TensorView() = default;
  CUTE_CPP_HD constexpr TensorView(E* ptr, L const& layout) : ptr_(ptr), layout_(layout) {}
  /// A TensorMut converts to a Tensor of the same layout.
  template <class F>
    requires(std::is_same_v<F const, E> && !std::is_same_v<F, E>)
  CUTE_CPP_HD constexpr TensorView(TensorView<F, L> const& other) : ptr_(other.data()), layout_(other.layout()) {}

  /// The C++ form of cute.make_tensor(ptr, layout).
  [[nodiscard]] CUTE_CPP_HD static constexpr TensorView from_ptr(E* ptr, L const& layout) { return {ptr, layout}; }

  [[nodiscard]] CUTE_CPP_HD constexpr E* data() const noexcept { return ptr_; }
  [[nodiscard]] CUTE_CPP_HD constexpr L const& layout() const noexcept { return layout_; }
  [[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) shape() const { return layout_.shape(); }
  [[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) stride() const { return layout_.stride(); }

  /// t(crd): the element at a coordinate (an integer, or a tuple congruent to the shape), or,
  /// when the coordinate holds `_`, the view of the modes left open.
  template <class Crd>
  [[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) operator()(Crd const& crd) const {
    if constexpr (detail::has_underscore_v<Crd>) {
      if constexpr (detail::use_typed_slice<L, Crd>()) {
        auto const [offset, sliced] = detail::typed_slice(layout_, crd);
        return TensorView<E, std::remove_cvref_t<decltype(sliced)>>(ptr_ + offset, sliced);
      } else {
        auto const sliced = slice(crd, layout_);
        return TensorView<E, std::remove_cvref_t<decltype(sliced)>>(ptr_ + slice_offset(crd, layout_), sliced);
      }
    } else {
      return static_cast<E&>(ptr_[layout_(crd)]);
    }
  }
  template <class C0, class C1, class... Cs>
  [[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(Tuple<C0, C1, Cs...>(c0, c1, cs...));
  }
  /// t[i]: the element at linear index i (the layout's column-major coordinate order).
  [[nodiscard]] CUTE_CPP_HD constexpr E& operator[](std::int64_t i) const { return ptr_[layout_(i)]; }

  /// Tensor.load(): every element, in index order, as a RegisterTile (static shape only).
  [[nodiscard]] CUTE_CPP_HD constexpr auto load() const {
    static_assert(diag::tensor_static_size<is_static_v<decltype(size(layout_))>>::ok);
    constexpr int n = int(decltype(size(layout_))::value);
    RegisterTile<value_type, n> tile;
#pragma unroll
    for (int i = 0; i < n; ++i) tile[i] = (*this)[i];
    return tile;
  }
  /// Tensor.store(tile): every element from a RegisterTile of the same size, in index order.
  template <class U, int N>
    requires(!std::is_const_v<E>)
  CUTE_CPP_HD constexpr void store(RegisterTile<U, N> const& tile) const {
    static_assert(diag::tensor_static_size<is_static_v<decltype(size(layout_))>>::ok);
    static_assert(int(decltype(size(layout_))::value) == N,
                  "cute-cpp [tensor.store.size]: Tensor.store needs a RegisterTile of the tensor's size");
#pragma unroll
    for (int i = 0; i < N; ++i) (*this)[i] = static_cast<value_type>(tile[i]);
  }
  /// Fills every element with one value.
  CUTE_CPP_HD constexpr void fill(value_type const& v) const
    requires(!std::is_const_v<E>)
  {
    auto const n = std::int64_t(size(layout_));
    for (std::int64_t i = 0; i < n; ++i) (*this)[i] = v;
  }

 private:
  E* ptr_ = nullptr;
  [[no_unique_address]] L layout_{};
};

/// A read-only view (cute.Tensor over const memory).
template <class T, class L> using Tensor = TensorView<T const, L>;
/// A writable view.
template <class T, class L> using TensorMut = TensorView<T, L>;


// ---- construction ----

/// make_tensor(ptr, layout): Tensor for a const pointer, TensorMut otherwise.
///   make_tensor(p, RowMajor<4, 8>{})  -> a (_4,_8):(_8,_1) view of p
template <class T, class L>
  requires is_layout_v<L>
[[nodiscard]] CUTE_CPP_HD constexpr TensorView<T, L> make_tensor(T* ptr, L const& layout) {
  return {ptr, layout};
}
/// make_tensor(ptr, shape): the compact column-major layout of the shape (as cute.make_tensor).
template <class T, class S>
  requires(!is_layout_v<S>)
[[nodiscard]] CUTE_CPP_HD constexpr auto make_tensor(T* ptr, S const& shape) {
  return make_tensor(ptr, make_layout(shape));
}

// ---- sizes ----

template <class E, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto size(TensorView<E, L> const& t) { return size(t.layout()); }
template <int I, int... Is, class E, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto size(TensorView<E, L> const& t) { return size<I, Is...>(t.layout()); }
template <class E, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto rank(TensorView<E, L> const& t) { return rank(t.layout()); }

// ---- views (same memory, another layout) ----

/// local_tile(t, tiler, coord): the tile of t at coord. For a (M,N) tensor and tiler (BM,BN),
/// the (BM,BN) view that starts at element (coord0 * BM, coord1 * BN).
template <class E, class L, class T, class Crd>
[[nodiscard]] CUTE_CPP_HD constexpr auto local_tile(TensorView<E, L> const& t, T const& tiler, Crd const& coord) {
  auto const tile = local_tile(t.layout(), tiler, coord);
  return TensorView<E, std::remove_cvref_t<decltype(tile)>>(t.data() + local_tile_offset(t.layout(), tiler, coord), tile);
}
namespace detail {
/// The same elements as t (from t.data() on) seen through layout l.
template <class E, class L, class NewL>
CUTE_CPP_HD constexpr auto view_as(TensorView<E, L> const& t, NewL const& l) {
  return TensorView<E, NewL>(t.data(), l);
}
}  // namespace detail

/// zipped_divide(t, tiler): ((tile modes),(rest modes)); t(make_coord(_, k)) is tile k.
template <class E, class L, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto zipped_divide(TensorView<E, L> const& t, T const& tiler) {
  return detail::view_as(t, zipped_divide(t.layout(), tiler));
}
template <class E, class L, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto logical_divide(TensorView<E, L> const& t, T const& tiler) {
  return detail::view_as(t, logical_divide(t.layout(), tiler));
}
template <class E, class L, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto tiled_divide(TensorView<E, L> const& t, T const& tiler) {
  return detail::view_as(t, tiled_divide(t.layout(), tiler));
}
template <class E, class L, class T>
[[nodiscard]] CUTE_CPP_HD constexpr auto flat_divide(TensorView<E, L> const& t, T const& tiler) {
  return detail::view_as(t, flat_divide(t.layout(), tiler));
}
/// local_partition(t, threads, idx): the elements thread idx owns when the thread layout is
/// repeated over t. ((8,8):(1,8) tensor, (2,4):(4,1) threads, 1) -> a (4,2):(2,32) view at +8.
template <class E, class L, class Thr, class I>
[[nodiscard]] CUTE_CPP_HD constexpr auto local_partition(TensorView<E, L> const& t, Thr const& threads, I const& idx) {
  auto const l = local_partition(t.layout(), threads, idx);
  return TensorView<E, std::remove_cvref_t<decltype(l)>>(t.data() + local_partition_offset(t.layout(), threads, idx), l);
}
/// flatten(t): the same elements with the layout's leaves as top-level modes.
template <class E, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto flatten(TensorView<E, L> const& t) {
  return detail::view_as(t, flatten(t.layout()));
}
/// coalesce(t): the same elements with the fewest modes (a contiguous tile becomes n:1).
template <class E, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto coalesce(TensorView<E, L> const& t) {
  return detail::view_as(t, coalesce(t.layout()));
}

// ---- register tensors ----

/// A tensor that owns its elements in registers (cute.make_rmem_tensor): a static layout over
/// cosize(L) values. Index it like a view, or take view() / load() / store().
template <class T, class L>
struct RmemTensor {
  static_assert(diag::tensor_static_size<is_static_v<L>>::ok);
  static constexpr int cosize_v = int(decltype(cosize(L{}))::value);
  // NOTE: 16-byte aligned so that vector copies (TiledCopy, load_vector) may target it.
  alignas(16) T storage[cosize_v];

  [[nodiscard]] CUTE_CPP_HD constexpr TensorMut<T, L> view() { return {storage, L{}}; }
  [[nodiscard]] CUTE_CPP_HD constexpr Tensor<T, L> view() const { return {storage, L{}}; }
  [[nodiscard]] CUTE_CPP_HD static constexpr L layout() { return {}; }
  template <class... Crd>
  [[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) operator()(Crd const&... crd) { return view()(crd...); }
  template <class... Crd>
  [[nodiscard]] CUTE_CPP_HD constexpr decltype(auto) operator()(Crd const&... crd) const { return view()(crd...); }
  [[nodiscard]] CUTE_CPP_HD constexpr auto load() const { return view().load(); }
  template <class U, int N>
  CUTE_CPP_HD constexpr void store(RegisterTile<U, N> const& tile) { view().store(tile); }
  /// Sets every element to x.
  CUTE_CPP_HD constexpr void fill(T const& x) {
    for (int i = 0; i < cosize_v; ++i) storage[i] = x;
  }
};

/// make_rmem_tensor<T>(layout): register storage for a static layout.
template <class T, class L>
[[nodiscard]] CUTE_CPP_HD constexpr RmemTensor<T, L> make_rmem_tensor(L const&) { return {}; }

/// make_fragment_like(t): register storage with t's (static) shape, compact column-major: the
/// destination of copy_s2r / source of copy_r2s for a thread's partition.
///   make_fragment_like(thr.partition_S(sA))  // ((1,8),2,1) -> RmemTensor<T, ((_1,_8),_2,_1):((_1,_1),_8,_16)>
template <class E, class L>
[[nodiscard]] CUTE_CPP_HD constexpr auto make_fragment_like(TensorView<E, L> const& t) {
  using S = std::remove_cvref_t<decltype(t.layout().shape())>;
  static_assert(diag::tensor_static_size<is_static_v<S>>::ok);
  return RmemTensor<std::remove_cv_t<E>, std::remove_cvref_t<decltype(make_layout(S{}))>>{};
}

// ---- detail ----

namespace detail {

/// The typed slice applies to a typed layout and a flat coordinate of its rank whose entries are
/// `_` or integers: the open modes keep their types (no engine round trip on the device).
template <class L, class Crd>
CUTE_CPP_HD constexpr bool use_typed_slice() {
  if constexpr (!is_layout_v<L> || !is_tuple_v<Crd>) {
    return false;
  } else if constexpr (!is_typed_v<typename L::shape_type> || !is_tuple_v<typename L::shape_type>) {
    return false;
  } else if constexpr (tuple_rank_v<Crd> != tuple_rank_v<typename L::shape_type>) {
    return false;
  } else {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return ((std::is_same_v<elem_t<I, Crd>, Underscore> || Integer<elem_t<I, Crd>>) && ...);
    }(std::make_index_sequence<tuple_rank_v<Crd>>{});
  }
}

template <std::size_t I, class Crd, class T>
CUTE_CPP_HD constexpr auto keep_if_open(T const& x) {
  if constexpr (std::is_same_v<elem_t<I, Crd>, Underscore>) return make_tuple(x);
  else return Tuple<>{};
}
template <class... A>
CUTE_CPP_HD constexpr auto cat_all(A const&... a) {
  if constexpr (sizeof...(A) == 0) {
    return Tuple<>{};
  } else {
    return [](auto const& first, auto const&... rest) {
      if constexpr (sizeof...(rest) == 0) return first;
      else return tuple_cat2(first, cat_all(rest...));
    }(a...);
  }
}
template <class T>
CUTE_CPP_HD constexpr auto unwrap_rank1(T const& t) {
  if constexpr (tuple_rank_v<T> == 1) return get<0>(t);
  else return t;
}

/// (offset, layout of the open modes); one open mode is unwrapped, as C++ CuTe's slice.
template <class L>
CUTE_CPP_HD constexpr auto typed_slice(L const& l, auto const& crd) {
  using Crd = std::remove_cvref_t<decltype(crd)>;
  constexpr std::size_t R = tuple_rank_v<Crd>;
  auto const offset = crd2idx_typed(crd, l.shape(), l.stride());
  auto const [sh, st] = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return make_tuple(unwrap_rank1(cat_all(keep_if_open<I, Crd>(get<I>(l.shape()))...)),
                      unwrap_rank1(cat_all(keep_if_open<I, Crd>(get<I>(l.stride()))...)));
  }(std::make_index_sequence<R>{});
  return make_tuple(offset, Layout<std::remove_cvref_t<decltype(sh)>, std::remove_cvref_t<decltype(st)>>(sh, st));
}

}  // namespace detail

}  // namespace cute_cpp
