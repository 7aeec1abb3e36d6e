// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch copy-group helpers: cp_async (global -> shared, 4/8/16 bytes), cp_async_commit_group, cp_async_wait_group<N>,
// cp_async_bulk_commit_group, cp_async_bulk_wait_group<N> (optionally read-only); the 1D bulk
// copy global -> shared with mbarrier completion (cp_async_bulk_global_to_shared); the bulk L2
// prefetch (cp_async_bulk_prefetch_l2).
#include <ctm/common/cp_async.hpp>       // cp_async_commit_group, cp_async_wait_group
#include <ctm/common/cp_async_bulk.hpp>  // cp_async_bulk_commit_group, cp_async_bulk_wait_group(_read), cp_async_bulk_shared_cta_global

#include <cstdint>

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// cp.async of Bytes (4, 8 or 16) from global to shared memory, cached at all levels; bytes past
/// `src_bytes` are zero-filled (0: nothing is read). Completes at cp_async_wait_group.
template <int Bytes>
__device__ __forceinline__ void cp_async(void* dst, void const* src, std::uint32_t src_bytes = Bytes) {
  ctm::cp_async_ca_shared_global<Bytes>(dst, src, src_bytes);
}
__device__ __forceinline__ void cp_async_commit_group() { ctm::cp_async_commit_group(); }
template <int N>
__device__ __forceinline__ void cp_async_wait_group() { ctm::cp_async_wait_group<N>(); }
__device__ __forceinline__ void cp_async_bulk_commit_group() { ctm::cp_async_bulk_commit_group(); }
/// Waits until at most N bulk groups are pending; with Read, only until their sources are read.
template <int N, bool Read = false>
__device__ __forceinline__ void cp_async_bulk_wait_group() {
  if constexpr (Read) ctm::cp_async_bulk_wait_group_read<N>();
  else ctm::cp_async_bulk_wait_group<N>();
}

/// cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes: copies `bytes` from global
/// `src` into this block's shared memory at `dst` and completes `bytes` transaction bytes on
/// `mbar` (expected with mbarrier_arrive_and_expect_tx).
/// @pre bytes, dst and src are multiples of 16.
__device__ __forceinline__ void cp_async_bulk_global_to_shared(void* dst, void const* src, std::uint32_t bytes,
                                                               std::uint64_t* mbar) {
  ctm::cp_async_bulk_shared_cta_global(dst, src, bytes, mbar);
}

/// cp.async.bulk.prefetch.L2.global: `bytes` from global `src` into L2 ahead of their loads.
/// @pre bytes and src are multiples of 16.
__device__ __forceinline__ void cp_async_bulk_prefetch_l2(void const* src, std::uint32_t bytes) {
  ctm::cp_async_bulk_prefetch_L2_global(src, bytes);
}

}  // namespace cute_cpp::arch
#endif
