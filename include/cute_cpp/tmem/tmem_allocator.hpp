// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// TmemAllocator: tensor-memory allocation for a CTA (CtaGroup 1) or a CTA pair (CtaGroup 2: one
// warp of each CTA calls together). One warp allocates into a shared-memory slot; after a barrier
// every thread reads the address (retrieve_ptr); the same warp frees it. CuTeDSL:
// cutlass.utils.TmemAllocator (allocate, relinquish_alloc_permit, wait_for_alloc / retrieve_ptr,
// free). Target: sm_100a (tcgen05.alloc names the target elsewhere).
#include <cute_cpp/diag/umma.hpp>  // tmem.alloc-columns

#include <cstdint>

#if defined(__CUDACC__)
#  include <ctm/sm100/tcgen05_alloc.hpp>  // tcgen05_alloc, tcgen05_dealloc, relinquish
#  include <ctm/sm100/tcgen05_sync.hpp>   // tcgen05 fences
#endif

namespace cute_cpp::sm100 {

/// Allocates Columns tensor-memory columns (a power of two, 32..512) for one CTA or a CTA pair;
/// the address goes to the 32-bit shared-memory word `slot`.
///   __shared__ std::uint32_t slot;  TmemAllocator<256> tmem{&slot};
///   if (warp == 0) tmem.allocate();  __syncthreads();  std::uint32_t acc = tmem.retrieve_ptr();
/// @pre Columns is a power of two in 32..512 [tmem.alloc-columns]: a compile error
template <std::uint32_t Columns, int CtaGroup = 1>
struct TmemAllocator {
  static_assert(diag::tmem_alloc_columns<Columns>::ok);
  static_assert(CtaGroup == 1 || CtaGroup == 2, "cute-cpp [umma.pair-m]: CtaGroup is 1 (one CTA) or 2 (a CTA pair)");
  static constexpr std::uint32_t columns = Columns;

  std::uint32_t* slot;  ///< the shared-memory word that receives the address

#if defined(__CUDACC__)
  /// tcgen05.alloc by the whole calling warp; the fence orders it before the barrier that
  /// precedes retrieve_ptr.
  __device__ __forceinline__ void allocate() const {
    ctm::tcgen05_alloc<CtaGroup>(ctm::cvta_to_shared_u32(slot), ctm::Tcgen05Cols<Columns>{});
    ctm::tcgen05_fence_before_thread_sync();
  }
  /// This CTA allocates no more (a co-resident CTA's allocation may proceed). The allocating warp.
  __device__ __forceinline__ void relinquish_alloc_permit() const {
    ctm::tcgen05_relinquish_alloc_permit<CtaGroup>();
  }
  /// The allocated address, read after a barrier that follows allocate().
  __device__ __forceinline__ std::uint32_t retrieve_ptr() const {
    ctm::tcgen05_fence_after_thread_sync();
    return *static_cast<std::uint32_t const volatile*>(slot);
  }
  /// tcgen05.dealloc by the allocating warp, after every tensor-memory access is done (a barrier
  /// with tcgen05.fence::before_thread_sync on the other side).
  __device__ __forceinline__ void free(std::uint32_t tmem_addr) const {
    ctm::tcgen05_fence_after_thread_sync();
    ctm::tcgen05_dealloc<CtaGroup>(tmem_addr, ctm::Tcgen05Cols<Columns>{});
  }
#endif
};

}  // namespace cute_cpp::sm100
