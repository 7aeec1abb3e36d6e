// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch copy-group helpers: cp_async_commit_group, cp_async_wait_group<N>,
// cp_async_bulk_commit_group, cp_async_bulk_wait_group<N> (optionally read-only).
#include <ctm/common/cp_async.hpp>       // cp_async_commit_group, cp_async_wait_group
#include <ctm/common/cp_async_bulk.hpp>  // cp_async_bulk_commit_group, cp_async_bulk_wait_group(_read)

#if defined(__CUDACC__)
namespace cute_cpp::arch {

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

}  // namespace cute_cpp::arch
#endif
