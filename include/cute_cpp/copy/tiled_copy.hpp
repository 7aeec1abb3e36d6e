// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// TiledCopy<Atom, ThrLayout, ValLayout>: threads laid out by ThrLayout ((TM,TN) -> thread), each
// owning a ValLayout ((VM,VN) -> value) block, tile a (TM*VM, TN*VN) copy tile. get_slice(t)
// gives ThrCopy, whose partition_S / partition_D view a rank-2 tensor as this thread's
// ((VM,VN),REST_M,REST_N) values; copy moves them atom by atom. The coverage proof (every tile
// element owned by exactly one (thread, value)) is a compile-time rule, [copy.tv.coverage].
// CuTeDSL: cute.make_tiled_copy_tv, TiledCopy.get_slice, ThrCopy.partition_S/D, cute.copy.
#include <cute_cpp/config.hpp>         // CUTE_CPP_HD
#include <cute_cpp/copy/atoms.hpp>     // CopyAtom, CopyUniversalOp, CopyG2SOp
#include <cute_cpp/diag/copy.hpp>      // copy_tv_covers_tile_once, copy_atom_*
#include <cute_cpp/layout/layout.hpp>  // Layout, size
#include <cute_cpp/tensor/tensor.hpp>  // TensorView

#include <cstdint>
#include <type_traits>

namespace cute_cpp {

namespace detail {

/// The first (thread, value) of a TV pair that is not hit exactly once, as the coverage rule's
/// arguments; hits == 1 when the layouts cover the tile exactly once.
struct TvCoverage {
  int thread = 0, value = 0, hits = 1;
};

template <class Thr, class Val>
constexpr TvCoverage tv_coverage() {
  constexpr int tm = int(decltype(size<0>(Thr{}))::value), tn = int(decltype(size<1>(Thr{}))::value);
  constexpr int vm = int(decltype(size<0>(Val{}))::value), vn = int(decltype(size<1>(Val{}))::value);
  constexpr int threads = tm * tn, values = vm * vn;
  int hits[threads * values] = {};
  for (int m = 0; m < tm * vm; ++m) {
    for (int n = 0; n < tn * vn; ++n) {
      auto const t = std::int64_t(Thr{}(m / vm, n / vn));
      auto const v = std::int64_t(Val{}(m % vm, n % vn));
      if (t < 0 || t >= threads || v < 0 || v >= values) return {int(t), int(v), -1};
      ++hits[t * values + v];
    }
  }
  for (int i = 0; i < threads * values; ++i)
    if (hits[i] != 1) return {i / values, i % values, hits[i]};
  return {};
}

}  // namespace detail

template <class TiledCopyT>
class ThrCopy;

/// The thread-value plan of a copy. Thr: static (TM,TN) -> thread index; Val: static (VM,VN) ->
/// value index. Tile: (TM*VM, TN*VN); thread t's value v sits at (tm*VM + vm, tn*VN + vn).
///   TiledCopy<CopyAtom<CopyG2SOp<16>, bf16>, Layout<Shape<_16,_8>, Stride<_8,_1>>, Layout<Shape<_1,_8>>>
///   -> 128 threads copy a 16 x 64 bf16 tile, 8 contiguous values (16 bytes) each.
template <class Atom, class Thr, class Val>
struct TiledCopy {
  static_assert(diag::copy_tv_rank_2<rank_v<Thr>, rank_v<Val>>::ok);
  using atom_type = Atom;
  using value_type = typename Atom::value_type;
  using thr_layout = Thr;
  using val_layout = Val;
  static constexpr int tm = int(decltype(size<0>(Thr{}))::value), tn = int(decltype(size<1>(Thr{}))::value);
  static constexpr int vm = int(decltype(size<0>(Val{}))::value), vn = int(decltype(size<1>(Val{}))::value);
  static constexpr int threads = tm * tn;  // the threads the copy needs (size of ThrLayout)
  static constexpr int values = vm * vn;   // values per thread
  static constexpr int tile_m = tm * vm, tile_n = tn * vn;
  static constexpr detail::TvCoverage coverage = detail::tv_coverage<Thr, Val>();
  static_assert(diag::copy_tv_covers_tile_once<tile_m, tile_n, threads, values, coverage.thread, coverage.value,
                                               coverage.hits>::ok);

  /// The copy tile as a shape: (TileM, TileN).
  [[nodiscard]] CUTE_CPP_HD static constexpr auto tile() { return make_shape(C<tile_m>{}, C<tile_n>{}); }
  /// The slice of thread `t` (0 <= t < threads).
  [[nodiscard]] CUTE_CPP_HD static constexpr ThrCopy<TiledCopy> get_slice(int t) { return ThrCopy<TiledCopy>(t); }
};

/// make_tiled_copy_tv(atom, thr_layout, val_layout): the TiledCopy of those types.
template <class Atom, class Thr, class Val>
[[nodiscard]] CUTE_CPP_HD constexpr TiledCopy<Atom, Thr, Val> make_tiled_copy_tv(Atom, Thr, Val) { return {}; }

/// One thread's part of a TiledCopy.
template <class TiledCopyT>
class ThrCopy {
 public:
  CUTE_CPP_HD constexpr explicit ThrCopy(int thread) {
    using Thr = typename TiledCopyT::thr_layout;
    using S = typename Thr::shape_type;
    using D = typename Thr::stride_type;
    if constexpr (Integer<detail::elem_t<0, S>> && Integer<detail::elem_t<1, S>>) {
      // NOTE: a bijection of two integer modes onto [0, threads) (the coverage rule) is a compact
      // layout, so each coordinate is (thread / stride) % extent.
      m0_ = thread / int(detail::elem_t<0, D>::value) % TiledCopyT::tm * TiledCopyT::vm;
      n0_ = thread / int(detail::elem_t<1, D>::value) % TiledCopyT::tn * TiledCopyT::vn;
    } else {
      for (int m = 0; m < TiledCopyT::tm; ++m)
        for (int n = 0; n < TiledCopyT::tn; ++n)
          if (std::int64_t(Thr{}(m, n)) == thread) {
            m0_ = m * TiledCopyT::vm;
            n0_ = n * TiledCopyT::vn;
          }
    }
  }

  /// partition_S(t) / partition_D(t): this thread's values of a rank-2 (M,N) tensor (M, N
  /// multiples of the tile, or predicated with copy_if), as ((VM,VN),REST_M,REST_N).
  template <class E, class L>
  [[nodiscard]] CUTE_CPP_HD constexpr auto partition_S(TensorView<E, L> const& t) const { return partition(t); }
  template <class E, class L>
  [[nodiscard]] CUTE_CPP_HD constexpr auto partition_D(TensorView<E, L> const& t) const { return partition(t); }

  /// The tensor coordinate (m, n) of value (vm, vn) in tile (rm, rn): for predicates on tails.
  [[nodiscard]] CUTE_CPP_HD constexpr auto coord(int vm, int vn, int rm, int rn) const {
    return make_coord(rm * TiledCopyT::tile_m + m0_ + vm, rn * TiledCopyT::tile_n + n0_ + vn);
  }
  [[nodiscard]] CUTE_CPP_HD constexpr int m0() const { return m0_; }
  [[nodiscard]] CUTE_CPP_HD constexpr int n0() const { return n0_; }

 private:
  template <class E, class L>
  CUTE_CPP_HD constexpr auto partition(TensorView<E, L> const& t) const {
    static_assert(rank_v<L> == 2, "cute-cpp [copy.partition.rank]: partition_S/D take a rank-2 (M,N) tensor");
    auto const& s = t.layout().shape();
    auto const& d = t.layout().stride();
    auto const sh = make_shape(make_shape(C<TiledCopyT::vm>{}, C<TiledCopyT::vn>{}),
                               ceil_div(get<0>(s), C<TiledCopyT::tile_m>{}), ceil_div(get<1>(s), C<TiledCopyT::tile_n>{}));
    auto const st = make_stride(make_stride(get<0>(d), get<1>(d)), detail::typed_mul(C<TiledCopyT::tile_m>{}, get<0>(d)),
                                detail::typed_mul(C<TiledCopyT::tile_n>{}, get<1>(d)));
    auto const offset = std::int64_t(m0_) * std::int64_t(dyn(get<0>(d))) + std::int64_t(n0_) * std::int64_t(dyn(get<1>(d)));
    return make_tensor(t.data() + offset, make_layout(sh, st));
  }
  int m0_ = 0, n0_ = 0;
};

namespace detail {

/// Calls f(vm, vn, rm, rn) at the first value of every atom access, with the vector along the
/// mode that is contiguous in both tensors.
template <class TC, class S, class D, class F>
CUTE_CPP_HD void for_each_access(S const& src, D const& dst, F&& f) {
  using Atom = typename TC::atom_type;
  constexpr bool unit1 = mode_unit<decltype(layout<0>(src.layout())), 1>() &&
                         mode_unit<decltype(layout<0>(dst.layout())), 1>();
  constexpr bool unit0 = mode_unit<decltype(layout<0>(src.layout())), 0>() &&
                         mode_unit<decltype(layout<0>(dst.layout())), 0>();
  static_assert(diag::copy_atom_contiguous<Atom::elems, unit0, unit1>::ok);
  constexpr bool along_n = Atom::elems == 1 || unit1;
  static_assert(diag::copy_atom_vector_width<Atom::op_type::bytes, int(sizeof(typename TC::value_type)),
                                             along_n ? TC::vn : TC::vm>::ok);
  constexpr int step_m = along_n ? 1 : Atom::elems, step_n = along_n ? Atom::elems : 1;
  int const rest_m = int(size<1>(src.layout())), rest_n = int(size<2>(src.layout()));
  for (int rm = 0; rm < rest_m; ++rm)
    for (int rn = 0; rn < rest_n; ++rn)
#pragma unroll
      for (int vm = 0; vm < TC::vm; vm += step_m)
#pragma unroll
        for (int vn = 0; vn < TC::vn; vn += step_n) f(vm, vn, rm, rn);
}

}  // namespace detail

/// copy(tiled_copy, src, dst): every value of the partitions src -> dst (cute.copy).
template <class Atom, class Thr, class Val, class ES, class LS, class ED, class LD>
CUTE_CPP_HD void copy(TiledCopy<Atom, Thr, Val> const&, TensorView<ES, LS> const& src, TensorView<ED, LD> const& dst) {
  using TC = TiledCopy<Atom, Thr, Val>;
  detail::for_each_access<TC>(src, dst, [&](int vm, int vn, int rm, int rn) {
    auto const c = make_coord(make_coord(vm, vn), rm, rn);
    Atom::op_type::copy(&src(c), &dst(c));
  });
}
/// copy_if(tiled_copy, pred, src, dst): accesses whose first value fails pred(vm, vn, rm, rn) are
/// not read; their destination is zero-filled (cp.async's src-size 0; a plain store of zeros).
template <class Atom, class Thr, class Val, class Pred, class ES, class LS, class ED, class LD>
CUTE_CPP_HD void copy_if(TiledCopy<Atom, Thr, Val> const&, Pred&& pred, TensorView<ES, LS> const& src,
                         TensorView<ED, LD> const& dst) {
  using TC = TiledCopy<Atom, Thr, Val>;
  detail::for_each_access<TC>(src, dst, [&](int vm, int vn, int rm, int rn) {
    auto const c = make_coord(make_coord(vm, vn), rm, rn);
    bool const ok = pred(vm, vn, rm, rn);
    Atom::op_type::copy_zfill(ok ? &src(c) : src.data(), &dst(c), ok);
  });
}

namespace detail {
/// copy() for the directions whose destination cp.async cannot write.
template <class TC, class S, class D>
CUTE_CPP_HD void copy_not_g2s(TC const& tc, S const& src, D const& dst) {
  static_assert(diag::copy_atom_g2s_only<!TC::atom_type::op_type::is_cp_async>::ok);
  copy(tc, src, dst);
}
}  // namespace detail

/// Direction-named forms (cute.copy with the atom the direction needs): cp.async atoms are
/// accepted by copy_g2s only [copy.atom.direction].
template <class TC, class S, class D>
CUTE_CPP_HD void copy_g2s(TC const& tc, S const& src, D const& dst) { copy(tc, src, dst); }
template <class TC, class S, class D>
CUTE_CPP_HD void copy_s2g(TC const& tc, S const& src, D const& dst) { detail::copy_not_g2s(tc, src, dst); }
template <class TC, class S, class D>
CUTE_CPP_HD void copy_s2r(TC const& tc, S const& src, D const& dst) { detail::copy_not_g2s(tc, src, dst); }
template <class TC, class S, class D>
CUTE_CPP_HD void copy_r2s(TC const& tc, S const& src, D const& dst) { detail::copy_not_g2s(tc, src, dst); }

}  // namespace cute_cpp
