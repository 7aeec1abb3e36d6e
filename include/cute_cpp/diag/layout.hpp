// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/diag/layout.hpp: the rules of the layout algebra. Each rule has an id
// (`layout.<rule>`), a rule template whose template arguments are the offending values (so nvcc
// and g++ print them on the first context line), and the same text for the run-time exception.
#include <cute_cpp/config.hpp>  // CUTE_CPP_HD

namespace cute_cpp::diag {

/// The rules the algebra can break. `none` means no error.
enum class LayoutRule : int {
  none = 0,
  capacity,                  // layout.capacity
  congruent,                 // layout.congruent
  composition_stride,        // layout.composition.stride-divisibility
  composition_shape,         // layout.composition.shape-divisibility
  composition_rank,          // layout.composition.tiler-rank
  complement_injective,      // layout.complement.injective
  divide_rank,               // layout.divide.tiler-rank
  divide_fit,                // layout.divide.tiler-fits
  product_rank,              // layout.product.tiler-rank
  coord_range,               // layout.coord.out-of-range
  coord_congruent,           // layout.coord.congruent
  profile_rank,              // layout.profile.rank
  mode_index,                // layout.mode.index
  swizzle_params,            // layout.swizzle.params
  tile_rank,                 // layout.tile-to-shape.rank
  tile_divides,              // layout.tile-to-shape.divides
  recast_divisibility,       // layout.recast.divisibility
  left_inverse_divisibility, // layout.left-inverse.divisibility
  basis_unsupported,         // layout.basis.unsupported
};

/// An error found by the engine: the rule and up to two values that explain it.
struct LayoutError {
  LayoutRule rule = LayoutRule::none;
  long long a = 0;
  long long b = 0;
  CUTE_CPP_HD constexpr void set(LayoutRule r, long long x, long long y) noexcept {
    if (rule == LayoutRule::none) {
      rule = r;
      a = x;
      b = y;
    }
  }
  CUTE_CPP_HD constexpr explicit operator bool() const noexcept { return rule != LayoutRule::none; }
};

// ---- rule templates: instantiated only when a static input breaks the rule ----

template <long long Capacity, long long Needed>
struct layout_capacity {
  static_assert(Needed <= Capacity,
                "cute-cpp [layout.capacity]: the layout has more nodes than a DynTuple holds (DynTuple::capacity); split it into smaller layouts");
  static constexpr bool ok = true;
};
template <long long ShapeNodes, long long StrideNodes>
struct layout_congruent {
  static_assert(ShapeNodes == StrideNodes && ShapeNodes < 0,
                "cute-cpp [layout.congruent]: a layout's shape and stride must have the same tree structure");
  static constexpr bool ok = true;
};
template <long long ModeShape, long long RestStride>
struct composition_stride_divisibility {
  static_assert(ModeShape % RestStride == 0 || RestStride % ModeShape == 0,
                "cute-cpp [layout.composition.stride-divisibility]: composition(A, B): each shape of A must divide B's stride, or be divided by it (A's mode shape, B's remaining stride)");
  static constexpr bool ok = true;
};
template <long long RestShape, long long ModeShape>
struct composition_shape_divisibility {
  static_assert(RestShape % ModeShape == 0 || ModeShape % RestShape == 0,
                "cute-cpp [layout.composition.shape-divisibility]: composition(A, B): B's shape does not divide into A's shape (B's remaining shape, A's mode shape); make B's shape a multiple or divisor of A's modes");
  static constexpr bool ok = true;
};
template <long long TilerRank, long long LayoutRank>
struct composition_tiler_rank {
  static_assert(TilerRank <= LayoutRank,
                "cute-cpp [layout.composition.tiler-rank]: composition(A, tiler): the tiler has more modes than A (tiler rank, layout rank)");
  static constexpr bool ok = true;
};
template <long long Stride, long long Covered>
struct complement_injective {
  static_assert(Stride >= Covered,
                "cute-cpp [layout.complement.injective]: complement needs an injective layout: a mode with this stride overlaps the modes below it (stride, extent already covered)");
  static constexpr bool ok = true;
};
template <long long TilerRank, long long LayoutRank>
struct divide_tiler_rank {
  static_assert(TilerRank <= LayoutRank,
                "cute-cpp [layout.divide.tiler-rank]: divide(A, tiler): the tiler has more modes than A (tiler rank, layout rank)");
  static constexpr bool ok = true;
};
template <long long A, long long B>
struct divide_tiler_fits {
  static_assert(A % B == 0 || B % A == 0,
                "cute-cpp [layout.divide.tiler-fits]: divide(A, tiler): the tiler does not fit A's modes (the two values that do not divide one another)");
  static constexpr bool ok = true;
};
template <long long TilerRank, long long LayoutRank>
struct product_tiler_rank {
  static_assert(TilerRank <= LayoutRank,
                "cute-cpp [layout.product.tiler-rank]: product(A, tiler): the tiler has more modes than A (tiler rank, layout rank)");
  static constexpr bool ok = true;
};
template <long long Coordinate, long long Extent>
struct coord_in_range {
  static_assert(0 <= Coordinate && Coordinate < Extent,
                "cute-cpp [layout.coord.out-of-range]: a coordinate lies outside its mode (coordinate, extent)");
  static constexpr bool ok = true;
};
template <long long CoordRank, long long ShapeRank>
struct coord_congruent {
  static_assert(CoordRank == ShapeRank && CoordRank < 0,
                "cute-cpp [layout.coord.congruent]: a tuple coordinate must have the rank of the shape mode it indexes (coordinate rank, shape rank)");
  static constexpr bool ok = true;
};
template <long long ProfileRank, long long LayoutRank>
struct profile_rank {
  static_assert(ProfileRank <= LayoutRank,
                "cute-cpp [layout.profile.rank]: the profile has more modes than the layout (profile rank, layout rank)");
  static constexpr bool ok = true;
};
template <long long Index, long long Rank>
struct mode_index {
  static_assert(0 <= Index && Index < Rank,
                "cute-cpp [layout.mode.index]: mode index out of range (index, rank)");
  static constexpr bool ok = true;
};
template <long long Bits, long long Shift>
struct swizzle_params {
  static_assert(Bits >= 0 && (Shift < 0 ? -Shift : Shift) >= Bits,
                "cute-cpp [layout.swizzle.params]: Swizzle<B, M, S> needs B >= 0, M >= 0, |S| >= B and B + M + |S| <= 63 (B, M, S)");
  static constexpr bool ok = true;
};

template <long long BlockRank, long long TargetRank>
struct tile_to_shape_rank {
  static_assert(BlockRank <= TargetRank,
                "cute-cpp [layout.tile-to-shape.rank]: tile_to_shape(block, shape): the block has more modes than the target shape (block rank, target rank)");
  static constexpr bool ok = true;
};
template <long long TargetMode, long long BlockMode>
struct tile_to_shape_divides {
  static_assert(TargetMode % BlockMode == 0,
                "cute-cpp [layout.tile-to-shape.divides]: tile_to_shape(block, shape): a mode of the block does not divide the target mode (target size, block size)");
  static constexpr bool ok = true;
};

template <long long A, long long B>
struct recast_divisibility {
  static_assert(A % B == 0 || B % A == 0,
                "cute-cpp [layout.recast.divisibility]: upcast / recast_layout: a stride or contiguous extent does not divide by the element ratio (the two values)");
  static constexpr bool ok = true;
};

template <long long Stride, long long Covered>
struct left_inverse_divisibility {
  static_assert(Covered != 0 && Stride % Covered == 0,
                "cute-cpp [layout.left-inverse.divisibility]: left_inverse: a stride is not a multiple of the extent the smaller strides cover (stride, covered extent)");
  static constexpr bool ok = true;
};

template <long long Axis, long long Unused>
struct basis_unsupported {
  static_assert(Axis < 0 && Unused != 0,
                "cute-cpp [layout.basis.unsupported]: this operation needs integer strides; a layout with ScaledBasis strides (an identity layout) supports composition, the divides, local_tile, local_partition and evaluation (axis)");
  static constexpr bool ok = true;
};

/// Raises the compile-time error for E (no-op when E is no error). Used by the static path.
template <LayoutRule Rule, long long A, long long B>
CUTE_CPP_HD constexpr bool check_static() {
  using R = LayoutRule;
  if constexpr (Rule == R::none) return true;
  else if constexpr (Rule == R::capacity) return layout_capacity<A, B>::ok;
  else if constexpr (Rule == R::congruent) return layout_congruent<A, B>::ok;
  else if constexpr (Rule == R::composition_stride) return composition_stride_divisibility<A, B>::ok;
  else if constexpr (Rule == R::composition_shape) return composition_shape_divisibility<A, B>::ok;
  else if constexpr (Rule == R::composition_rank) return composition_tiler_rank<A, B>::ok;
  else if constexpr (Rule == R::complement_injective) return complement_injective<A, B>::ok;
  else if constexpr (Rule == R::divide_rank) return divide_tiler_rank<A, B>::ok;
  else if constexpr (Rule == R::divide_fit) return divide_tiler_fits<A, B>::ok;
  else if constexpr (Rule == R::product_rank) return product_tiler_rank<A, B>::ok;
  else if constexpr (Rule == R::coord_range) return coord_in_range<A, B>::ok;
  else if constexpr (Rule == R::coord_congruent) return coord_congruent<A, B>::ok;
  else if constexpr (Rule == R::profile_rank) return profile_rank<A, B>::ok;
  else if constexpr (Rule == R::mode_index) return mode_index<A, B>::ok;
  else if constexpr (Rule == R::tile_rank) return tile_to_shape_rank<A, B>::ok;
  else if constexpr (Rule == R::tile_divides) return tile_to_shape_divides<A, B>::ok;
  else if constexpr (Rule == R::recast_divisibility) return recast_divisibility<A, B>::ok;
  else if constexpr (Rule == R::left_inverse_divisibility) return left_inverse_divisibility<A, B>::ok;
  else if constexpr (Rule == R::basis_unsupported) return basis_unsupported<A, B>::ok;
  else return swizzle_params<A, B>::ok;
}

/// The rule id and text of E, for the run-time exception (the static_assert text, then the values).
CUTE_CPP_HD constexpr char const* layout_rule_text(LayoutRule r) noexcept {
  using R = LayoutRule;
  switch (r) {
    case R::none: return "";
    case R::capacity: return "cute-cpp [layout.capacity]: the layout has more nodes than a DynTuple holds (DynTuple::capacity); split it into smaller layouts";
    case R::congruent: return "cute-cpp [layout.congruent]: a layout's shape and stride must have the same tree structure";
    case R::composition_stride: return "cute-cpp [layout.composition.stride-divisibility]: composition(A, B): each shape of A must divide B's stride, or be divided by it (A's mode shape, B's remaining stride)";
    case R::composition_shape: return "cute-cpp [layout.composition.shape-divisibility]: composition(A, B): B's shape does not divide into A's shape (B's remaining shape, A's mode shape); make B's shape a multiple or divisor of A's modes";
    case R::composition_rank: return "cute-cpp [layout.composition.tiler-rank]: composition(A, tiler): the tiler has more modes than A (tiler rank, layout rank)";
    case R::complement_injective: return "cute-cpp [layout.complement.injective]: complement needs an injective layout: a mode with this stride overlaps the modes below it (stride, extent already covered)";
    case R::divide_rank: return "cute-cpp [layout.divide.tiler-rank]: divide(A, tiler): the tiler has more modes than A (tiler rank, layout rank)";
    case R::divide_fit: return "cute-cpp [layout.divide.tiler-fits]: divide(A, tiler): the tiler does not fit A's modes (the two values that do not divide one another)";
    case R::product_rank: return "cute-cpp [layout.product.tiler-rank]: product(A, tiler): the tiler has more modes than A (tiler rank, layout rank)";
    case R::coord_range: return "cute-cpp [layout.coord.out-of-range]: a coordinate lies outside its mode (coordinate, extent)";
    case R::coord_congruent: return "cute-cpp [layout.coord.congruent]: a tuple coordinate must have the rank of the shape mode it indexes (coordinate rank, shape rank)";
    case R::profile_rank: return "cute-cpp [layout.profile.rank]: the profile has more modes than the layout (profile rank, layout rank)";
    case R::mode_index: return "cute-cpp [layout.mode.index]: mode index out of range (index, rank)";
    case R::swizzle_params: return "cute-cpp [layout.swizzle.params]: Swizzle<B, M, S> needs B >= 0, M >= 0, |S| >= B and B + M + |S| <= 63 (B, M, S)";
    case R::tile_rank: return "cute-cpp [layout.tile-to-shape.rank]: tile_to_shape(block, shape): the block has more modes than the target shape (block rank, target rank)";
    case R::recast_divisibility: return "cute-cpp [layout.recast.divisibility]: upcast / recast_layout: a stride or contiguous extent does not divide by the element ratio (the two values)";
    case R::left_inverse_divisibility: return "cute-cpp [layout.left-inverse.divisibility]: left_inverse: a stride is not a multiple of the extent the smaller strides cover (stride, covered extent)";
    case R::basis_unsupported: return "cute-cpp [layout.basis.unsupported]: this operation needs integer strides; a layout with ScaledBasis strides (an identity layout) supports composition, the divides, local_tile, local_partition and evaluation (axis)";
    case R::tile_divides: return "cute-cpp [layout.tile-to-shape.divides]: tile_to_shape(block, shape): a mode of the block does not divide the target mode (target size, block size)";
  }
  return "";
}

}  // namespace cute_cpp::diag
