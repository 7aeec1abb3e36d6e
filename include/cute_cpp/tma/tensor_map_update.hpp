// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Device-side updates of a TMA descriptor held in global memory (a grouped GEMM's per-group maps):
// point it at another tensor, change an extent, then publish the writes to the TMA unit.
// CuTeDSL: cpasync.update_tma_descriptor / fence_tma_desc_release; CuTe C++: tma_descriptor_replace_*.
#include <cute_cpp/arch/fence.hpp>  // fence_proxy<ProxyKind::tensormap_generic_release>
#include <cute_cpp/config.hpp>

#if defined(__CUDACC__)
#  include <ctm/common/tensormap.hpp>
#endif

#include <cstdint>

namespace cute_cpp {

#if defined(__CUDACC__)
/// Points the descriptor at `map_in_global` (128 bytes of global memory) at the tensor at `base`.
__device__ __forceinline__ void tensor_map_replace_address(void* map_in_global, void const* base) {
  ctm::tensormap_replace_tile_global_address_global(map_in_global, base);
}

/// Sets extent `Dim` (0: the innermost) of the descriptor at `map_in_global` to `extent` elements.
template <int Dim>
__device__ __forceinline__ void tensor_map_replace_extent(void* map_in_global, std::uint32_t extent) {
  ctm::tensormap_replace_tile_global_dim_global<Dim>(map_in_global, extent);
}

/// Publishes this thread's descriptor writes (made through the generic proxy) to the tensor-map
/// proxy that TMA reads them through; a reader acquires them before its first copy.
__device__ __forceinline__ void tensor_map_release() { arch::fence_proxy<arch::ProxyKind::tensormap_generic_release>(); }
#endif

}  // namespace cute_cpp
