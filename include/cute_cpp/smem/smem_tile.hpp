// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The shared-memory tiles that TMA fills and wgmma reads, as layout types, and what TMA needs to
// know about them (SmemTile): the box, how many boxes make the tile, the swizzle mode.
// Two forms, in elements, with W = the swizzle width in elements:
//   contiguous  (Outer,Inner):(Inner,_1)                  Inner == W (or any when unswizzled)
//   blocked     ((W,Blocks),Outer):((_1,W*Outer),W)        Blocks boxes of W x Outer, side by side
// For a K-major operand Inner is K; for an M/N-major one the blocked form runs along M/N.
// CuTeDSL: sm90_utils.make_smem_layout_a/b (the K_SW128 / MN_SW128 atoms tiled to the tile).
#include <cute_cpp/diag/tma.hpp>
#include <cute_cpp/layout/layout.hpp>
#include <cute_cpp/layout/swizzle.hpp>

#include <cstddef>

namespace cute_cpp {

namespace detail {
constexpr int log2_exact(int v) { return v <= 1 ? 0 : 1 + log2_exact(v / 2); }
}  // namespace detail

/// The TMA/wgmma swizzle of `SwizzleBytes` (32, 64, 128) for elements of T, in element units.
template <class T, int SwizzleBytes>
using SwizzleFor = Swizzle<detail::log2_exact(SwizzleBytes / 16), detail::log2_exact(16 / sizeof(T)), 3>;

/// A K-major (row-major) Rows x K tile whose rows are one swizzle width: K * sizeof(T) == SwizzleBytes.
template <class T, int Rows, int K, int SwizzleBytes = 128>
using SmemKMajor = ComposedLayout<SwizzleFor<T, SwizzleBytes>, 0, RowMajor<Rows, K>>;

/// An M/N-major tile of MN x K: MN contiguous, in blocks of one swizzle width, K rows each.
template <class T, int MN, int K, int SwizzleBytes = 128>
using SmemMNMajor = ComposedLayout<
    SwizzleFor<T, SwizzleBytes>, 0,
    Layout<Shape<Shape<C<SwizzleBytes / int(sizeof(T))>, C<MN * int(sizeof(T)) / SwizzleBytes>>, C<K>>,
           Stride<Stride<C<1>, C<SwizzleBytes / int(sizeof(T)) * K>>, C<SwizzleBytes / int(sizeof(T))>>>>;

namespace detail {

template <class L>
struct TileForm {
  static constexpr bool known = false, blocked = false;
  static constexpr int inner = 16, outer = 1, blocks = 1;  // placeholders: only the rule's message matters
};
template <int Outer, int Inner>
struct TileForm<Layout<Shape<C<Outer>, C<Inner>>, Stride<C<Inner>, C<1>>>> {
  static constexpr bool known = true, blocked = false;
  static constexpr int inner = Inner, outer = Outer, blocks = 1;
};
template <int W, int Blocks, int Outer, int BlockStride>
struct TileForm<Layout<Shape<Shape<C<W>, C<Blocks>>, C<Outer>>, Stride<Stride<C<1>, C<BlockStride>>, C<W>>>> {
  static constexpr bool known = BlockStride == W * Outer, blocked = true;
  static constexpr int inner = W, outer = Outer, blocks = Blocks;
};

template <class L>
struct SwizzleOf {
  using layout = L;
  static constexpr int bits = 0, base = 0, shift = 0;
  static constexpr bool swizzled = false;
};
template <int B, int M, int S, auto Offset, class L>
struct SwizzleOf<ComposedLayout<Swizzle<B, M, S>, Offset, L>> {
  static_assert(Offset == 0, "cute-cpp [tma.smem-layout.offset]: a TMA shared layout has offset 0");
  using layout = L;
  static constexpr int bits = B, base = M, shift = S;
  static constexpr bool swizzled = B > 0;
};

}  // namespace detail

/// What TMA and wgmma need to know about a shared tile of T laid out by SmemLayout; every
/// rule is checked here, where the user's type is formed, but the box's extent, which TensorMap
/// checks (a wgmma operand tile may have more rows than one TMA box).
template <class T, class SmemLayout>
struct SmemTile {
  using swizzle_info = detail::SwizzleOf<SmemLayout>;
  using form = detail::TileForm<typename swizzle_info::layout>;
  static_assert(diag::tma_smem_layout_form<form::known, SmemLayout>::ok);
  static_assert(diag::tma_element_type<sizeof(T)>::ok);

  static constexpr int elem_bytes = int(sizeof(T));
  /// True for the blocked form ((W,Blocks),Outer): an M/N-major operand tile.
  static constexpr bool blocked = form::blocked;
  static constexpr int box_inner = form::inner;   ///< elements, the contiguous extent of one box
  static constexpr int box_outer = form::outer;   ///< rows of one box
  static constexpr int boxes = form::blocks;      ///< boxes side by side along the inner dimension
  static constexpr int box_elems = box_inner * box_outer;
  static constexpr int inner = box_inner * boxes; ///< the tile's contiguous extent
  static constexpr int outer = box_outer;
  static constexpr int elems = box_elems * boxes;
  static constexpr int bytes = elems * elem_bytes;
  static constexpr int box_bytes = box_elems * elem_bytes;
  /// 0 (none), 32, 64 or 128.
  static constexpr int swizzle_bytes = swizzle_info::swizzled ? (16 << swizzle_info::bits) : 0;

  static_assert(diag::tma_box_inner_bytes<box_inner * elem_bytes, elem_bytes, box_inner>::ok);
  static_assert(diag::tma_swizzle_mode<swizzle_info::swizzled, swizzle_info::bits, swizzle_info::shift>::ok);
  static_assert(diag::tma_swizzle_unit<swizzle_info::swizzled, swizzle_info::base, elem_bytes>::ok);
  static_assert(diag::tma_box_within_swizzle<box_inner * elem_bytes, swizzle_bytes>::ok);
};

/// Bytes a shared tile of T occupies: the cosize of its layout times sizeof(T). Padding
/// counts; a swizzle permutes within the tile and does not.
template <class T, class SmemLayout>
[[nodiscard]] constexpr int size_in_bytes() {
  using L = typename detail::SwizzleOf<SmemLayout>::layout;
  static_assert(is_static_v<L>, "cute-cpp [smem.static-layout]: a shared-memory layout must be static");
  return int(decltype(cosize(L{}))::value) * int(sizeof(T));
}

}  // namespace cute_cpp
