// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Bulk copies (TMA without a tensor map): global→shared with mbarrier completion (with
// multicast and L2 cache hint), shared→global and shared→global reductions in bulk groups,
// shared::cta→shared::cluster, L2 prefetch; bulk commit/wait groups (and .read); L2 cache
// policies (createpolicy); tensor-map prefetch. The tensor forms (1D-5D) are in
// ctm/generated/cp_async_bulk_tensor.hpp. CuTeDSL: cute.nvgpu.cpasync bulk ops underneath.
// Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE, cvta_to_shared_u32

namespace ctm::diag {
/// Rule cp-async-bulk.wait-group: the bulk-group count is an immediate in 0..63.
template <int N>
struct cp_async_bulk_wait_group_count {
  static_assert(N >= 0 && N <= 63, "ctm [cp-async-bulk.wait-group]: cp.async.bulk.wait_group takes a count in 0..63");
  static constexpr bool ok = true;
};
}  // namespace ctm::diag

#if defined(__CUDACC__)
namespace ctm {

// ---- global → shared ----

/// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [bar]:
/// copies `size` bytes and signals `size` transaction bytes on `bar`.
/// @pre size and both addresses are multiples of 16.
CTM_DEVICE void cp_async_bulk_shared_cluster_global(void* dst, void const* src, std::uint32_t size,
                                                    std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          cvta_to_shared_u32(dst)),
      "l"(src), "r"(size), "r"(cvta_to_shared_u32(bar))
      : "memory");
}

/// cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [dst], [src], size, [bar]: the
/// same into this CTA's shared memory only. On sm_120a prefer it: ptxas 13.0 lowers the
/// shared::cluster form there through a call (and then ignores setmaxnreg in the kernel).
CTM_DEVICE void cp_async_bulk_shared_cta_global(void* dst, void const* src, std::uint32_t size,
                                                std::uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          cvta_to_shared_u32(dst)),
      "l"(src), "r"(size), "r"(cvta_to_shared_u32(bar))
      : "memory");
}

/// ... .L2::cache_hint: with an L2 policy from createpolicy_fractional_L2_*.
CTM_DEVICE void cp_async_bulk_shared_cluster_global_L2_cache_hint(void* dst, void const* src,
                                                                  std::uint32_t size,
                                                                  std::uint64_t* bar,
                                                                  std::uint64_t policy) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;\n" ::"r"(
          cvta_to_shared_u32(dst)),
      "l"(src), "r"(size), "r"(cvta_to_shared_u32(bar)), "l"(policy)
      : "memory");
}

/// ... .multicast::cluster: the same bytes land at the same offsets in every CTA of
/// `cta_mask` and each of their barriers at `bar`'s offset receives the transaction bytes.
CTM_DEVICE void cp_async_bulk_shared_cluster_global_multicast_cluster(void* dst, void const* src,
                                                                      std::uint32_t size,
                                                                      std::uint64_t* bar,
                                                                      std::uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;\n" ::"r"(
          cvta_to_shared_u32(dst)),
      "l"(src), "r"(size), "r"(cvta_to_shared_u32(bar)), "h"(cta_mask)
      : "memory");
}

// ---- shared → global, shared → cluster ----

/// cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size: completes in the current
/// bulk group (cp_async_bulk_commit_group / cp_async_bulk_wait_group).
CTM_DEVICE void cp_async_bulk_global_shared_cta(void* dst, void const* src, std::uint32_t size) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(dst),
               "r"(cvta_to_shared_u32(src)), "r"(size)
               : "memory");
}

/// cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.
CTM_DEVICE void cp_async_bulk_global_shared_cta_L2_cache_hint(void* dst, void const* src,
                                                              std::uint32_t size,
                                                              std::uint64_t policy) {
  asm volatile(
      "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;\n" ::"l"(dst),
      "r"(cvta_to_shared_u32(src)), "r"(size), "l"(policy)
      : "memory");
}

/// cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dst], [src], size,
/// [bar]: this CTA's shared memory to another CTA's; `dst` and `bar` are shared::cluster
/// addresses (mapa_shared_cluster_u32), the barrier being in the destination CTA.
CTM_DEVICE void cp_async_bulk_shared_cluster_shared_cta(std::uint32_t dst_cluster_addr,
                                                        void const* src, std::uint32_t size,
                                                        std::uint32_t bar_cluster_addr) {
  asm volatile(
      "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          dst_cluster_addr),
      "r"(cvta_to_shared_u32(src)), "r"(size), "r"(bar_cluster_addr)
      : "memory");
}

/// cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [dst], [src], size.
CTM_DEVICE void cp_reduce_async_bulk_global_shared_cta_add_f32(float* dst, float const* src,
                                                               std::uint32_t size) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;\n" ::"l"(
                   dst),
               "r"(cvta_to_shared_u32(src)), "r"(size)
               : "memory");
}
/// cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 (elements are f16 bits).
CTM_DEVICE void cp_reduce_async_bulk_global_shared_cta_add_noftz_f16(void* dst, void const* src,
                                                                     std::uint32_t size) {
  asm volatile(
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%0], [%1], %2;\n" ::"l"(dst),
      "r"(cvta_to_shared_u32(src)), "r"(size)
      : "memory");
}
/// cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 (elements are bf16 bits).
CTM_DEVICE void cp_reduce_async_bulk_global_shared_cta_add_noftz_bf16(void* dst, void const* src,
                                                                      std::uint32_t size) {
  asm volatile(
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%0], [%1], %2;\n" ::"l"(dst),
      "r"(cvta_to_shared_u32(src)), "r"(size)
      : "memory");
}
/// cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32.
CTM_DEVICE void cp_reduce_async_bulk_global_shared_cta_add_u32(std::uint32_t* dst,
                                                               std::uint32_t const* src,
                                                               std::uint32_t size) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], %2;\n" ::"l"(
                   dst),
               "r"(cvta_to_shared_u32(src)), "r"(size)
               : "memory");
}
/// cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32.
CTM_DEVICE void cp_reduce_async_bulk_global_shared_cta_min_s32(std::int32_t* dst,
                                                               std::int32_t const* src,
                                                               std::uint32_t size) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [%0], [%1], %2;\n" ::"l"(
                   dst),
               "r"(cvta_to_shared_u32(src)), "r"(size)
               : "memory");
}
/// cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32.
CTM_DEVICE void cp_reduce_async_bulk_global_shared_cta_max_s32(std::int32_t* dst,
                                                               std::int32_t const* src,
                                                               std::uint32_t size) {
  asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32 [%0], [%1], %2;\n" ::"l"(
                   dst),
               "r"(cvta_to_shared_u32(src)), "r"(size)
               : "memory");
}

// ---- bulk groups ----

/// cp.async.bulk.commit_group: closes this thread's current bulk group.
CTM_DEVICE void cp_async_bulk_commit_group() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

/// cp.async.bulk.wait_group N: waits until at most N bulk groups are pending (writes done).
template <int N>
CTM_DEVICE void cp_async_bulk_wait_group() {
  static_assert(diag::cp_async_bulk_wait_group_count<N>::ok);
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
}

/// cp.async.bulk.wait_group.read N: waits until at most N bulk groups still read their source
/// (the shared buffer may then be reused; the global writes may still be in flight).
template <int N>
CTM_DEVICE void cp_async_bulk_wait_group_read() {
  static_assert(diag::cp_async_bulk_wait_group_count<N>::ok);
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}

// ---- prefetch and cache policies ----

/// cp.async.bulk.prefetch.L2.global [src], size: asks L2 to fetch `size` bytes at `src`, a hint.
/// @pre src and size multiples of 16, size below 2^20 (ptxas 13.0 keeps 16 bits of size / 16 in
/// UBLKPF's operand).
CTM_DEVICE void cp_async_bulk_prefetch_L2_global(void const* src, std::uint32_t size) {
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(src), "r"(size) : "memory");
}

/// prefetch.tensormap [tmap]: brings a tensor map (a __grid_constant__ kernel parameter or a
/// global address) into the TMA unit's cache.
CTM_DEVICE void prefetch_tensormap(void const* tmap) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(tmap) : "memory");
}

/// createpolicy.fractional.L2::evict_first.b64 policy, 1.0: a cache-hint operand that marks the
/// accessed lines evict-first (streamed data).
CTM_DEVICE std::uint64_t createpolicy_fractional_L2_evict_first() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(p));
  return p;
}
/// createpolicy.fractional.L2::evict_last.b64 policy, 1.0: keep the lines (reused data).
CTM_DEVICE std::uint64_t createpolicy_fractional_L2_evict_last() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;\n" : "=l"(p));
  return p;
}
/// createpolicy.fractional.L2::evict_normal.b64 policy, 1.0.
CTM_DEVICE std::uint64_t createpolicy_fractional_L2_evict_normal() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;\n" : "=l"(p));
  return p;
}

}  // namespace ctm
#endif
