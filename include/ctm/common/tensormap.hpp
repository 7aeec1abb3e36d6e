// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Device-side tensor-map updates (grouped GEMM / MoE: one TMA descriptor per group, patched on
// the device): tensormap.replace of the global address, a global dimension, a global stride or
// a box dimension, on a 128-byte tensor map in shared or global memory, and
// tensormap.cp_fenceproxy, which copies a patched map from shared to global memory with the
// release fence the TMA unit needs. Before use by another CTA, the reader issues
// fence_proxy_tensormap_generic_acquire_gpu (fence.hpp). Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE, cvta_to_shared_u32

namespace ctm::diag {
/// Rule tensormap.ordinal: the dimension ordinal is an immediate below the rank limit (5 for
/// dimensions and box dimensions, 4 for strides: the innermost stride is implicit).
template <int Ord, int Limit>
struct tensormap_ordinal {
  static_assert(Ord >= 0 && Ord < Limit, "ctm [tensormap.ordinal]: tensormap.replace takes a dimension ordinal in 0..4 (0..3 for global_stride)");
  static constexpr bool ok = true;
};
}  // namespace ctm::diag

#if defined(__CUDACC__)
namespace ctm {

// ---- in shared memory ----

/// tensormap.replace.tile.global_address.shared::cta.b1024.b64 [tmap], addr.
/// @pre tmap is a 128-byte-aligned copy of a CUtensorMap in this CTA's shared memory.
CTM_DEVICE void tensormap_replace_tile_global_address_shared_cta(void* smem_tmap, void const* global_address) {
  asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;\n" ::"r"(
                   cvta_to_shared_u32(smem_tmap)),
               "l"(global_address)
               : "memory");
}
/// tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [tmap], Ord, extent.
template <int Ord>
CTM_DEVICE void tensormap_replace_tile_global_dim_shared_cta(void* smem_tmap, std::uint32_t extent) {
  static_assert(diag::tensormap_ordinal<Ord, 5>::ok);
  asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], %1, %2;\n" ::"r"(
                   cvta_to_shared_u32(smem_tmap)),
               "n"(Ord), "r"(extent)
               : "memory");
}
/// tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [tmap], Ord, stride_bytes: the
/// byte stride of dimension Ord + 1.
template <int Ord>
CTM_DEVICE void tensormap_replace_tile_global_stride_shared_cta(void* smem_tmap, std::uint64_t stride_bytes) {
  static_assert(diag::tensormap_ordinal<Ord, 4>::ok);
  asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], %1, %2;\n" ::"r"(
                   cvta_to_shared_u32(smem_tmap)),
               "n"(Ord), "l"(stride_bytes)
               : "memory");
}
/// tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [tmap], Ord, box_extent.
template <int Ord>
CTM_DEVICE void tensormap_replace_tile_box_dim_shared_cta(void* smem_tmap, std::uint32_t box_extent) {
  static_assert(diag::tensormap_ordinal<Ord, 5>::ok);
  asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], %1, %2;\n" ::"r"(
                   cvta_to_shared_u32(smem_tmap)),
               "n"(Ord), "r"(box_extent)
               : "memory");
}

// ---- in global memory ----

/// tensormap.replace.tile.global_address.global.b1024.b64 [tmap], addr.
CTM_DEVICE void tensormap_replace_tile_global_address_global(void* gmem_tmap, void const* global_address) {
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;\n" ::"l"(gmem_tmap),
               "l"(global_address)
               : "memory");
}
/// tensormap.replace.tile.global_dim.global.b1024.b32 [tmap], Ord, extent.
template <int Ord>
CTM_DEVICE void tensormap_replace_tile_global_dim_global(void* gmem_tmap, std::uint32_t extent) {
  static_assert(diag::tensormap_ordinal<Ord, 5>::ok);
  asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], %1, %2;\n" ::"l"(gmem_tmap), "n"(Ord),
               "r"(extent)
               : "memory");
}
/// tensormap.replace.tile.global_stride.global.b1024.b64 [tmap], Ord, stride_bytes.
template <int Ord>
CTM_DEVICE void tensormap_replace_tile_global_stride_global(void* gmem_tmap, std::uint64_t stride_bytes) {
  static_assert(diag::tensormap_ordinal<Ord, 4>::ok);
  asm volatile("tensormap.replace.tile.global_stride.global.b1024.b64 [%0], %1, %2;\n" ::"l"(gmem_tmap), "n"(Ord),
               "l"(stride_bytes)
               : "memory");
}

// ---- publish ----

/// tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
/// [gmem_tmap], [smem_tmap], 128: copies the patched map to global memory and releases it to
/// the TMA (tensormap) proxy. All threads of the warp execute it.
CTM_DEVICE void tensormap_cp_fenceproxy_global_shared_cta_tensormap_generic_release_gpu(void* gmem_tmap,
                                                                                       void const* smem_tmap) {
  asm volatile(
      "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;\n" ::"l"(
          gmem_tmap),
      "r"(cvta_to_shared_u32(smem_tmap))
      : "memory");
}

}  // namespace ctm
#endif
