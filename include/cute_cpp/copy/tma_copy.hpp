// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// TmaCopy: tile copies through the Tensor Memory Accelerator. load / load_multicast / store move
// one whole shared tile (all of its boxes, side by side along the inner dimension) between
// global and shared memory through a TensorMap; one elected thread issues them.
// CuTeDSL: cute.copy with a TMA atom (mcast_mask for multicast), cpasync.prefetch_descriptor.
#include <cute_cpp/config.hpp>
#include <cute_cpp/tma/tensor_map.hpp>

#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/common/cp_async_bulk.hpp>
#  include <ctm/common/cp_async_bulk_tensor.hpp>
#endif

namespace cute_cpp {

#if defined(__CUDACC__)
/// Tile copies through the Tensor Memory Accelerator (one elected thread issues them).
struct TmaCopy {
  /// Loads the tile whose first element is at (inner, outer[, rest...]) into `dst`, completing
  /// tile_bytes on `bar`.
  template <class T, class L, class... Rest>
  static __device__ __forceinline__ void load(TensorMap<T, L> const& desc, T* dst, std::uint64_t* bar,
                                              std::int32_t inner, std::int32_t outer, Rest... rest) {
    load_multicast(desc, dst, bar, std::uint16_t{0}, inner, outer, rest...);
  }

  /// As load, landing in every CTA of the cluster named by `mcast_mask` (0: this CTA only), each
  /// completing tile_bytes on its own `bar`.
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
  static __device__ __forceinline__ void issue_load(void const* map, void* dst, std::uint64_t* bar,
                                                    std::uint16_t mask, std::int32_t c0, std::int32_t c1,
                                                    std::int32_t c2, std::int32_t c3) {
    if (mask)
      ctm::cp_async_bulk_tensor_4d_shared_cluster_global_multicast_cluster(dst, map, c0, c1, c2, c3, bar, mask);
    else ctm::cp_async_bulk_tensor_4d_shared_cluster_global(dst, map, c0, c1, c2, c3, bar);
  }
  static __device__ __forceinline__ void issue_store(void const* map, void const* src, std::int32_t c0,
                                                     std::int32_t c1) {
    ctm::cp_async_bulk_tensor_2d_global_shared_cta(map, c0, c1, src);
  }
  static __device__ __forceinline__ void issue_store(void const* map, void const* src, std::int32_t c0,
                                                     std::int32_t c1, std::int32_t c2) {
    ctm::cp_async_bulk_tensor_3d_global_shared_cta(map, c0, c1, c2, src);
  }
  static __device__ __forceinline__ void issue_store(void const* map, void const* src, std::int32_t c0,
                                                     std::int32_t c1, std::int32_t c2, std::int32_t c3) {
    ctm::cp_async_bulk_tensor_4d_global_shared_cta(map, c0, c1, c2, c3, src);
  }
};
#endif

}  // namespace cute_cpp
