// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Shared-memory stages with their layout in the type: a pipeline's ring of buffers, each `Tiles`
// tiles of one shared layout side by side (an operand wider than one swizzle width is such tiles,
// tile c holding its columns [64c, 64c + 64) of a 128-byte-swizzled 16-bit operand). A stage's
// tile is found from the layout's size, never from an offset the kernel computes by hand, and
// every stage starts where the layout's swizzle pattern does.
// CuTeDSL: the staged smem layouts of sm90_utils.make_smem_layout_a/b (a stage mode last), and
// SmemAllocator.allocate_tensor of them.
#include <cute_cpp/config.hpp>
#include <cute_cpp/smem/smem_tile.hpp>

#include <cstddef>

namespace cute_cpp {

namespace diag {
/// smem.stage-alignment: each stage (and each tile) starts on the swizzle pattern's repeat.
template <int StageBytes, int TileBytes, int RepeatBytes>
struct smem_stage_alignment {
  static_assert(StageBytes % RepeatBytes == 0 && TileBytes % RepeatBytes == 0,
                "cute-cpp [smem.stage-alignment]: a stage's tiles must each be a whole number of the swizzle "
                "pattern's repeat (1024 bytes for 128-byte swizzles), so every tile starts where its pattern does");
  static constexpr bool ok = true;
};
}  // namespace diag

/// `Stages` buffers of `Tiles` tiles of T laid out by SmemLayout (see the file comment).
template <class T, class SmemLayout, int Stages = 1, int Tiles = 1>
struct SmemStages {
  static_assert(Stages >= 1 && Tiles >= 1, "cute-cpp [smem.stages]: at least one stage of at least one tile");
  using element_type = T;
  using layout = SmemLayout;
  static constexpr int stages = Stages;
  static constexpr int tiles = Tiles;
  static constexpr int tile_elems = size_in_bytes<T, SmemLayout>() / int(sizeof(T));  ///< the layout's cosize
  static constexpr int stage_elems = tile_elems * Tiles;
  /// The alignment every tile keeps: the 128-byte swizzles' pattern repeat (the largest).
  static constexpr int alignment = 1024;
  static_assert(diag::smem_stage_alignment<stage_elems * int(sizeof(T)), tile_elems * int(sizeof(T)),
                                           SmemTile<T, SmemLayout>::swizzle_bytes * 8 == 0
                                               ? 16
                                               : SmemTile<T, SmemLayout>::swizzle_bytes * 8>::ok);

  alignas(alignment) T storage[Stages][stage_elems];

  /// Tile `tile` of stage `stage`. NOTE: the stage index keeps its type (a PipelineState's is
  /// unsigned): converted to int, the address arithmetic became signed and the SASS changed.
  template <class Index>
  CUTE_CPP_HD T* tile(Index stage, int tile = 0) {
    return storage[stage] + tile * tile_elems;
  }
  template <class Index>
  CUTE_CPP_HD T const* tile(Index stage, int tile = 0) const {
    return storage[stage] + tile * tile_elems;
  }
};

}  // namespace cute_cpp
