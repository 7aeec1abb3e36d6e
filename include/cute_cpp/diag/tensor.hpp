// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Rule templates for tensors, register tiles and shared-memory carving (STYLE.md: the template
// arguments are the values under test, so nvcc prints them on the first context line).

namespace cute_cpp::diag {

/// Rule tensor.static-size: a register tile or register tensor needs a static element count.
template <bool Static>
struct tensor_static_size {
  static_assert(Static, "cute-cpp [tensor.static-size]: a register tensor needs a static layout (C<N> shape and stride)");
  static constexpr bool ok = true;
};

/// Rule tensor.gather.range: every index of a gather layout must fall inside the tile.
template <int TileSize, long long MaxIndex>
struct tensor_gather_in_range {
  static_assert(MaxIndex < TileSize, "cute-cpp [tensor.gather.range]: a gather index lies outside the register tile");
  static constexpr bool ok = true;
};

/// Rule tensor.vector.width: a vector access moves 1..16 bytes in a power of two, from an
/// element count that divides the tile.
template <int Elements, int ElemBytes, int TileSize>
struct tensor_vector_width {
  static_assert(Elements * ElemBytes <= 16 && ((Elements * ElemBytes) & (Elements * ElemBytes - 1)) == 0,
                "cute-cpp [tensor.vector.width]: a vector access moves 1, 2, 4, 8 or 16 bytes");
  static_assert(TileSize % Elements == 0,
                "cute-cpp [tensor.vector.width]: the vector width must divide the register tile's size");
  static constexpr bool ok = true;
};

/// Rule tensor.block-reduce.threads: a block reduction runs over whole warps, at most 32 of them.
template <int Threads>
struct block_reduce_threads {
  static_assert(Threads % 32 == 0 && Threads >= 32 && Threads <= 1024,
                "cute-cpp [tensor.block-reduce.threads]: a block reduction needs a multiple of 32 threads, 32..1024");
  static constexpr bool ok = true;
};

/// Rule smem.alignment: an alignment is a power of two of at most 1024 bytes.
template <int Align>
struct smem_alignment_power_of_two {
  static_assert(Align > 0 && (Align & (Align - 1)) == 0 && Align <= 1024,
                "cute-cpp [smem.alignment]: shared-memory alignment must be a power of two, at most 1024 bytes");
  static constexpr bool ok = true;
};

}  // namespace cute_cpp::diag
