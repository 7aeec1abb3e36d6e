// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch tensor-memory views: fence_view_async_tmem_load / fence_view_async_tmem_store
// (tcgen05.wait::ld / ::st), and the tcgen05 fences around a thread synchronisation
// (tcgen05.fence::before_thread_sync / ::after_thread_sync). sm_100a only: the ctm instruction
// rejects other targets by name.
#include <ctm/sm100/tcgen05_sync.hpp>  // ctm::fence_view_async_tmem_load/store

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// tcgen05.wait::ld: the registers of every earlier tcgen05.ld of this thread may be read.
template <class Target = void>
__device__ __forceinline__ void fence_view_async_tmem_load() { ctm::fence_view_async_tmem_load<Target>(); }
/// tcgen05.wait::st: every earlier tcgen05.st of this thread has completed.
template <class Target = void>
__device__ __forceinline__ void fence_view_async_tmem_store() { ctm::fence_view_async_tmem_store<Target>(); }

/// tcgen05.fence::before_thread_sync: this thread's earlier tcgen05 operations are ordered before
/// a barrier that follows (e.g. before signalling the epilogue, or before freeing tensor memory).
template <class Target = void>
__device__ __forceinline__ void tcgen05_fence_before_thread_sync() { ctm::tcgen05_fence_before_thread_sync<Target>(); }
/// tcgen05.fence::after_thread_sync: later tcgen05 operations are ordered after the barrier before.
template <class Target = void>
__device__ __forceinline__ void tcgen05_fence_after_thread_sync() { ctm::tcgen05_fence_after_thread_sync<Target>(); }

}  // namespace cute_cpp::arch
#endif
