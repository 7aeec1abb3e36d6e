// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// TensorMap<T, SmemLayout>: the 128-byte TMA descriptor, typed by element and shared tile, passed
// to kernels as `const __grid_constant__`. The host side (create_tensor_map_tiled) is in
// cute_cpp/host/tensor_map_encode.hpp; the copies through it (TmaCopy) in cute_cpp/copy/tma_copy.hpp.
// CuTeDSL: cpasync.make_tiled_tma_atom.
#include <cute_cpp/config.hpp>
#include <cute_cpp/smem/smem_tile.hpp>

#include <cstddef>
#include <cstdint>

namespace cute_cpp {

/// The opaque 128-byte CUtensorMap for a global tensor of T read or written in tiles laid out
/// in shared memory by SmemLayout.
template <class T, class SmemLayout>
struct alignas(64) TensorMap {
  using element_type = T;
  using smem_layout = SmemLayout;
  using tile = SmemTile<T, SmemLayout>;
  static_assert(diag::tma_box_extent<tile::box_inner, tile::box_outer>::ok);
  /// Bytes one tile moves: what a pipeline stage expects on its barrier.
  static constexpr std::uint32_t tile_bytes = tile::bytes;
  std::byte opaque[128];
};

}  // namespace cute_cpp
