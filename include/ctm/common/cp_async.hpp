// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cp.async (Ampere-style asynchronous global→shared copies of 4, 8 or 16 bytes, with the
// src-size form that zero-fills the rest), commit_group / wait_group / wait_all, and the
// mbarrier completion forms. CuTeDSL: cute.nvgpu.cpasync.CopyG2SOp underneath.
// Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE, cvta_to_shared_u32

namespace ctm::diag {
/// Rule cp-async.size: cp.async copies 4, 8 or 16 bytes; .cg copies 16 only.
template <int Bytes, bool CacheGlobal>
struct cp_async_size {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16,
                "ctm [cp-async.size]: cp.async copies 4, 8 or 16 bytes");
  static_assert(!CacheGlobal || Bytes == 16,
                "ctm [cp-async.size]: cp.async.cg (cache global) copies 16 bytes only; use cp_async_ca_shared_global for 4 or 8");
  static constexpr bool ok = true;
};
/// Rule cp-async.wait-group: the pending-group count is an immediate in 0..7.
template <int N>
struct cp_async_wait_group_count {
  static_assert(N >= 0 && N <= 7, "ctm [cp-async.wait-group]: wait_group takes a count in 0..7");
  static constexpr bool ok = true;
};
}  // namespace ctm::diag

#if defined(__CUDACC__)
namespace ctm {

// ---- copies ----

/// cp.async.ca.shared.global [dst], [src], Bytes: copies Bytes (4, 8, 16) from global to shared
/// memory, cached at all levels. Completes at the next cp_async_wait_group of its group.
/// @pre dst and src are Bytes-aligned  [cp-async.size]: Bytes is checked at compile time.
template <int Bytes>
CTM_DEVICE void cp_async_ca_shared_global(void* dst, void const* src) {
  static_assert(diag::cp_async_size<Bytes, false>::ok);
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(cvta_to_shared_u32(dst)),
               "l"(src), "n"(Bytes)
               : "memory");
}

/// cp.async.ca.shared.global [dst], [src], Bytes, src_size: copies src_size bytes (0..Bytes)
/// and zero-fills the rest; src_size 0 is the predicated-off copy (all zeros, src unread).
template <int Bytes>
CTM_DEVICE void cp_async_ca_shared_global(void* dst, void const* src, std::uint32_t src_size) {
  static_assert(diag::cp_async_size<Bytes, false>::ok);
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(cvta_to_shared_u32(dst)),
               "l"(src), "n"(Bytes), "r"(src_size)
               : "memory");
}

/// The zero-fill form to a shared::cta address (cvta_to_shared_u32), for callers that keep
/// shared addresses as 32-bit values rather than convert a generic pointer per copy.
template <int Bytes>
CTM_DEVICE void cp_async_ca_shared_global(std::uint32_t dst, void const* src, std::uint32_t src_size) {
  static_assert(diag::cp_async_size<Bytes, false>::ok);
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(src), "n"(Bytes), "r"(src_size)
               : "memory");
}

/// cp.async.cg.shared.global [dst], [src], 16: caches in L2 only (bypasses L1).
template <int Bytes = 16>
CTM_DEVICE void cp_async_cg_shared_global(void* dst, void const* src) {
  static_assert(diag::cp_async_size<Bytes, true>::ok);
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(cvta_to_shared_u32(dst)),
               "l"(src), "n"(Bytes)
               : "memory");
}

/// cp.async.cg.shared.global [dst], [src], 16, src_size: the zero-fill form.
template <int Bytes = 16>
CTM_DEVICE void cp_async_cg_shared_global(void* dst, void const* src, std::uint32_t src_size) {
  static_assert(diag::cp_async_size<Bytes, true>::ok);
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;\n" ::"r"(cvta_to_shared_u32(dst)),
               "l"(src), "n"(Bytes), "r"(src_size)
               : "memory");
}

// ---- groups ----

/// cp.async.commit_group: closes the group of this thread's cp.async issued since the last.
CTM_DEVICE void cp_async_commit_group() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

/// cp.async.wait_group N: waits until at most N of this thread's groups are pending.
template <int N>
CTM_DEVICE void cp_async_wait_group() {
  static_assert(diag::cp_async_wait_group_count<N>::ok);
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/// cp.async.wait_all: waits for every pending cp.async of this thread.
CTM_DEVICE void cp_async_wait_all() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }

// ---- mbarrier completion ----

/// cp.async.mbarrier.arrive.shared::cta.b64 [bar]: an arrival on `bar` once all of this
/// thread's prior cp.async complete (the pending count is incremented first).
CTM_DEVICE void cp_async_mbarrier_arrive(std::uint64_t* bar) {
  asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];\n" ::"r"(cvta_to_shared_u32(bar))
               : "memory");
}

/// cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar]: as above, counted in the barrier's
/// init count (no increment).
CTM_DEVICE void cp_async_mbarrier_arrive_noinc(std::uint64_t* bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(
                   cvta_to_shared_u32(bar))
               : "memory");
}

}  // namespace ctm
#endif
