// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// TensorMap<T, SmemLayout>: the 128-byte TMA descriptor, typed by element and shared tile, passed
// to kernels as `const __grid_constant__`. TmaCopy::load / store move one whole tile (all of its
// boxes) between global and shared memory. The host side (create_tensor_map_tiled) is in
// cute_cpp/host/tensor_map_encode.hpp. CuTeDSL: cpasync.make_tiled_tma_atom, cute.copy with a
// TMA atom, cpasync.prefetch_descriptor.
#include <cute_cpp/config.hpp>
#include <cute_cpp/tma/smem_tile.hpp>

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/cp_async_bulk.hpp>
#  include <ctm/common/cp_async_bulk_tensor.hpp>
#endif

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

#if defined(__CUDACC__)
/// Tile copies through the Tensor Memory Accelerator (one elected thread issues them).
struct TmaCopy {
  /// Loads the tile whose first element is at (inner, outer[, rest...]) into `dst`, completing
  /// tile_bytes on `bar`. With mcast_mask != 0 the tile lands in every CTA of the mask.
  template <class T, class L, class... Rest>
  static __device__ __forceinline__ void load(TensorMap<T, L> const& desc, T* dst, std::uint64_t* bar,
                                              std::int32_t inner, std::int32_t outer, Rest... rest) {
    using tile = SmemTile<T, L>;
#pragma unroll
    for (int b = 0; b < tile::boxes; ++b) {
      issue_load(&desc, dst + b * tile::box_elems, bar, std::uint16_t{0}, inner + b * tile::box_inner, outer,
                 std::int32_t(rest)...);
    }
  }

  /// As load, multicast to the CTAs of the cluster named by `mcast_mask`.
  template <class T, class L, class... Rest>
  static __device__ __forceinline__ void load_multicast(TensorMap<T, L> const& desc, T* dst, std::uint64_t* bar,
                                                        std::uint16_t mcast_mask, std::int32_t inner,
                                                        std::int32_t outer, Rest... rest) {
    using tile = SmemTile<T, L>;
#pragma unroll
    for (int b = 0; b < tile::boxes; ++b) {
      issue_load(&desc, dst + b * tile::box_elems, bar, mcast_mask, inner + b * tile::box_inner, outer,
                 std::int32_t(rest)...);
    }
  }

  /// Stores the tile in `src` to (inner, outer[, rest...]); elements outside the tensor are
  /// dropped by the hardware. Completes through the bulk async-group (commit / wait).
  template <class T, class L, class... Rest>
  static __device__ __forceinline__ void store(TensorMap<T, L> const& desc, T const* src, std::int32_t inner,
                                               std::int32_t outer, Rest... rest) {
    using tile = SmemTile<T, L>;
#pragma unroll
    for (int b = 0; b < tile::boxes; ++b) {
      issue_store(&desc, src + b * tile::box_elems, inner + b * tile::box_inner, outer, std::int32_t(rest)...);
    }
  }

  template <class T, class L>
  static __device__ __forceinline__ void prefetch_descriptor(TensorMap<T, L> const& desc) {
    ctm::prefetch_tensormap(&desc);
  }

 private:
  static __device__ __forceinline__ void issue_load(void const* map, void* dst, std::uint64_t* bar,
                                                    std::uint16_t mask, std::int32_t c0, std::int32_t c1) {
    if (mask) ctm::cp_async_bulk_tensor_2d_shared_cluster_global_multicast_cluster(dst, map, c0, c1, bar, mask);
    else ctm::cp_async_bulk_tensor_2d_shared_cluster_global(dst, map, c0, c1, bar);
  }
  static __device__ __forceinline__ void issue_load(void const* map, void* dst, std::uint64_t* bar,
                                                    std::uint16_t mask, std::int32_t c0, std::int32_t c1,
                                                    std::int32_t c2) {
    if (mask) ctm::cp_async_bulk_tensor_3d_shared_cluster_global_multicast_cluster(dst, map, c0, c1, c2, bar, mask);
    else ctm::cp_async_bulk_tensor_3d_shared_cluster_global(dst, map, c0, c1, c2, bar);
  }
  static __device__ __forceinline__ void issue_store(void const* map, void const* src, std::int32_t c0,
                                                     std::int32_t c1) {
    ctm::cp_async_bulk_tensor_2d_global_shared_cta(map, c0, c1, src);
  }
  static __device__ __forceinline__ void issue_store(void const* map, void const* src, std::int32_t c0,
                                                     std::int32_t c1, std::int32_t c2) {
    ctm::cp_async_bulk_tensor_3d_global_shared_cta(map, c0, c1, c2, src);
  }
};
#endif

}  // namespace cute_cpp
