// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/ops.hpp (detail): one functor per public operation, naming the kind of each
// argument (layout, tiler, int tuple, integer) and calling the value engine. apply.hpp converts
// the typed arguments by kind and runs the functor statically or at run time.
#include <cute_cpp/config.hpp>            // CUTE_CPP_HD
#include <cute_cpp/diag/layout.hpp>       // LayoutError
#include <cute_cpp/layout/engine.hpp>     // eng::, LV, DynTuple

namespace cute_cpp::detail {

/// How an argument is converted for the engine.
enum class Arg { layout, tiler, tuple, integer };

struct SizeOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr IV operator()(LV const& a, diag::LayoutError&) const { return eng::size(a); }
};
struct CosizeOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr IV operator()(LV const& a, diag::LayoutError& e) const { return eng::cosize(a, e); }
};
struct ProductOp {
  static constexpr Arg kinds[] = {Arg::tuple};
  CUTE_CPP_HD constexpr IV operator()(DynTuple const& a, diag::LayoutError&) const { return dt::product(a); }
};
struct EvalOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::tuple};
  CUTE_CPP_HD constexpr IV operator()(LV const& a, DynTuple const& c, diag::LayoutError& e) const {
    eng::check_coord(c, a.shape, e);
    return eng::eval(a, c, e);
  }
};
struct Crd2IdxOp {
  static constexpr Arg kinds[] = {Arg::tuple, Arg::tuple, Arg::tuple};
  CUTE_CPP_HD constexpr IV operator()(DynTuple const& c, DynTuple const& s, DynTuple const& d,
                                      diag::LayoutError& e) const {
    if (!dt::congruent(s, d)) e.set(diag::LayoutRule::congruent, s.n, d.n);
    eng::check_coord(c, s, e);
    return eng::crd2idx(c, s, d, e);
  }
};
struct Crd2IdxCompactOp {
  static constexpr Arg kinds[] = {Arg::tuple, Arg::tuple};
  CUTE_CPP_HD constexpr IV operator()(DynTuple const& c, DynTuple const& s, diag::LayoutError& e) const {
    eng::check_coord(c, s, e);
    return eng::crd2idx(c, s, dt::prefix_product(s), e);
  }
};
struct Idx2CrdOp {
  static constexpr Arg kinds[] = {Arg::integer, Arg::tuple};
  CUTE_CPP_HD constexpr DynTuple operator()(IV i, DynTuple const& s, diag::LayoutError&) const {
    return eng::idx2crd(i, s);
  }
};
struct Idx2CrdStridedOp {
  static constexpr Arg kinds[] = {Arg::integer, Arg::tuple, Arg::tuple};
  CUTE_CPP_HD constexpr DynTuple operator()(IV i, DynTuple const& s, DynTuple const& d, diag::LayoutError&) const {
    return eng::idx2crd_strided(i, s, d);
  }
};
struct MakeLayoutLeftOp {
  static constexpr Arg kinds[] = {Arg::tuple};
  CUTE_CPP_HD constexpr LV operator()(DynTuple const& s, diag::LayoutError&) const { return eng::make_layout_left(s); }
};
struct MakeLayoutRightOp {
  static constexpr Arg kinds[] = {Arg::tuple};
  CUTE_CPP_HD constexpr LV operator()(DynTuple const& s, diag::LayoutError&) const { return eng::make_layout_right(s); }
};
struct MakeLayoutOp {
  static constexpr Arg kinds[] = {Arg::tuple, Arg::tuple};
  CUTE_CPP_HD constexpr LV operator()(DynTuple const& s, DynTuple const& d, diag::LayoutError& e) const {
    return eng::make_layout(s, d, e);
  }
};
struct CoalesceOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError&) const { return eng::coalesce(a); }
};
struct CoalesceProfileOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::tuple};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, DynTuple const& p, diag::LayoutError& e) const {
    return eng::coalesce(a, p, e);
  }
};
struct FilterOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError&) const { return eng::filter(a); }
};
struct FilterProfileOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::tuple};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, DynTuple const& p, diag::LayoutError& e) const {
    return eng::filter(a, p, e);
  }
};
struct FlattenOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError&) const { return eng::flatten(a); }
};
struct FlattenTupleOp {
  static constexpr Arg kinds[] = {Arg::tuple};
  CUTE_CPP_HD constexpr DynTuple operator()(DynTuple const& a, diag::LayoutError&) const { return dt::flatten(a); }
};
/// The binary ops on (layout, tiler) and (layout, layout), dispatched by name.
enum class Bin {
  composition, logical_divide, zipped_divide, tiled_divide, flat_divide, logical_product, zipped_product,
  tiled_product, flat_product, blocked_product, raked_product, max_common_layout
};
CUTE_CPP_HD constexpr LV run_bin(Bin op, LV const& a, LV const& b, diag::LayoutError& e) noexcept {
  switch (op) {
    case Bin::composition: return eng::composition(a, b, e);
    case Bin::logical_divide: return eng::logical_divide(a, b, e);
    case Bin::zipped_divide: return eng::zipped_divide(a, b, e);
    case Bin::tiled_divide: return eng::tiled_divide(a, b, e);
    case Bin::flat_divide: return eng::flat_divide(a, b, e);
    case Bin::logical_product: return eng::logical_product(a, b, e);
    case Bin::zipped_product: return eng::zipped_product(a, b, e);
    case Bin::tiled_product: return eng::tiled_product(a, b, e);
    case Bin::flat_product: return eng::flat_product(a, b, e);
    case Bin::blocked_product: return eng::blocked_product(a, b, e);
    case Bin::raked_product: return eng::raked_product(a, b, e);
    case Bin::max_common_layout: return eng::max_common_layout(a, b, e);
  }
  return a;
}
template <Bin Op>
struct TilerOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::tiler};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& b, diag::LayoutError& e) const { return run_bin(Op, a, b, e); }
};
template <Bin Op>
struct LayoutPairOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& b, diag::LayoutError& e) const { return run_bin(Op, a, b, e); }
};
struct ComplementOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError& e) const { return eng::complement(a, e); }
};
struct ComplementToOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::integer};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, IV m, diag::LayoutError& e) const { return eng::complement(a, m, e); }
};
struct RightInverseOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError& e) const {
    return eng::reject_basis(a, e) ? a : eng::right_inverse(a);
  }
};
struct LeftInverseOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError& e) const {
    return eng::reject_basis(a, e) ? a : eng::left_inverse(a, e);
  }
};
struct MaxCommonVectorOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::layout};
  CUTE_CPP_HD constexpr IV operator()(LV const& a, LV const& b, diag::LayoutError& e) const {
    if (eng::reject_basis(a, e) || eng::reject_basis(b, e)) return {1, true};
    return eng::max_common_vector(a, b, e);
  }
};
template <int... Is>
struct SelectOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError& e) const {
    constexpr int idx[] = {Is..., 0};
    return eng::select(a, idx, int(sizeof...(Is)), e);
  }
};
template <int B, int E>
struct TakeOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError& e) const { return eng::take(a, B, E, e); }
};
template <int B, int E>
struct GroupOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError& e) const { return eng::group(a, B, E, e); }
};
template <int I>
struct ModeOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError& e) const {
    if (I < 0 || I >= eng::rank(a)) e.set(diag::LayoutRule::mode_index, I, eng::rank(a));
    return eng::mode(a, I);
  }
};
struct AppendOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& b, diag::LayoutError& e) const { return eng::append(a, b, e); }
};
struct PrependOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& b, diag::LayoutError& e) const { return eng::prepend(a, b, e); }
};
struct PairOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& b, diag::LayoutError&) const { return eng::pair(a, b); }
};
struct TupleOfOneOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError&) const { return eng::wrap(a); }
};
struct SliceOp {
  static constexpr Arg kinds[] = {Arg::tuple, Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(DynTuple const& c, LV const& a, diag::LayoutError& e) const {
    return eng::slice_and_offset(c, a, e).layout;
  }
};
struct SliceOffsetOp {
  static constexpr Arg kinds[] = {Arg::tuple, Arg::layout};
  CUTE_CPP_HD constexpr IV operator()(DynTuple const& c, LV const& a, diag::LayoutError& e) const {
    return eng::slice_and_offset(c, a, e).offset;
  }
};
struct TileToShapeOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::tuple};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, DynTuple const& t, diag::LayoutError& e) const {
    return eng::tile_to_shape(a, t, nullptr, e);
  }
};
struct TileToShapeOrderedOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::tuple, Arg::tuple};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, DynTuple const& t, DynTuple const& o, diag::LayoutError& e) const {
    return eng::tile_to_shape(a, t, &o, e);
  }
};
struct OrderedLayoutOp {
  static constexpr Arg kinds[] = {Arg::tuple, Arg::tuple};
  CUTE_CPP_HD constexpr LV operator()(DynTuple const& s, DynTuple const& o, diag::LayoutError& e) const {
    return eng::make_ordered_layout(s, o, e);
  }
};
template <long long N>
struct UpcastOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError& e) const {
    return eng::reject_basis(a, e) ? a : eng::upcast(a, {N, true}, e);
  }
};
template <long long N>
struct DowncastOp {
  static constexpr Arg kinds[] = {Arg::layout};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, diag::LayoutError& e) const {
    return eng::reject_basis(a, e) ? a : eng::downcast(a, {N, true});
  }
};
struct LocalTileOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::tiler, Arg::tuple};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& t, DynTuple const& c, diag::LayoutError& e) const {
    return eng::local_tile(a, t, c, e).layout;
  }
};
struct LocalTileOffsetOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::tiler, Arg::tuple};
  CUTE_CPP_HD constexpr IV operator()(LV const& a, LV const& t, DynTuple const& c, diag::LayoutError& e) const {
    return eng::local_tile(a, t, c, e).offset;
  }
};
struct LocalPartitionOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::layout, Arg::integer};
  CUTE_CPP_HD constexpr LV operator()(LV const& a, LV const& t, IV i, diag::LayoutError& e) const {
    return eng::local_partition(a, t, i, e).layout;
  }
};
struct LocalPartitionOffsetOp {
  static constexpr Arg kinds[] = {Arg::layout, Arg::layout, Arg::integer};
  CUTE_CPP_HD constexpr IV operator()(LV const& a, LV const& t, IV i, diag::LayoutError& e) const {
    return eng::local_partition(a, t, i, e).offset;
  }
};

struct TupleAppendOp {
  static constexpr Arg kinds[] = {Arg::tuple, Arg::tuple};
  CUTE_CPP_HD constexpr DynTuple operator()(DynTuple const& a, DynTuple const& b, diag::LayoutError&) const {
    DynTuple r = a.is_leaf() ? dt::wrap(a) : a;
    dt::push(r, b);
    return r;
  }
};
struct TuplePrependOp {
  static constexpr Arg kinds[] = {Arg::tuple, Arg::tuple};
  CUTE_CPP_HD constexpr DynTuple operator()(DynTuple const& a, DynTuple const& b, diag::LayoutError&) const {
    return dt::prepend(a.is_leaf() ? dt::wrap(a) : a, b);
  }
};
struct ProductEachOp {
  static constexpr Arg kinds[] = {Arg::tuple};
  CUTE_CPP_HD constexpr DynTuple operator()(DynTuple const& a, diag::LayoutError&) const { return dt::product_each(a); }
};
struct PrefixProductOp {
  static constexpr Arg kinds[] = {Arg::tuple};
  CUTE_CPP_HD constexpr DynTuple operator()(DynTuple const& a, diag::LayoutError&) const { return dt::prefix_product(a); }
};
struct SuffixProductOp {
  static constexpr Arg kinds[] = {Arg::tuple};
  CUTE_CPP_HD constexpr DynTuple operator()(DynTuple const& a, diag::LayoutError&) const { return dt::suffix_product(a); }
};

}  // namespace cute_cpp::detail
