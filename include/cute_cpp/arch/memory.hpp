// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute.arch memory helpers beyond the copies: a shared-memory address as the 32-bit window offset and
// 8- and 4-byte shared accesses through it (the compiler keeps shared-state arrays reached through
// pointers on generic 64-bit loads), the two-float global reduction, a global flag's acquire load and
// release store at GPU scope, a 64-bit count's acquire load and release add, the global timer and a
// nanosleep backoff for spinning on such a flag.
#include <ctm/common/config.hpp>  // cvta_to_shared_u32
#include <ctm/common/ld_st.hpp>   // ld_shared_v2_f32, st_shared_b32, ld_acquire / st_release, nanosleep
#include <ctm/common/red.hpp>     // red_global_v2_f32_add
#include <ctm/common/sreg.hpp>    // globaltimer

#include <cstdint>

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// `p`'s offset in the shared window (p must point into this CTA's shared memory).
__device__ __forceinline__ std::uint32_t shared_address(void const* p) { return ctm::cvta_to_shared_u32(p); }
/// Two floats at shared address `addr` (8-byte aligned).
__device__ __forceinline__ float2 load_shared_f32x2(std::uint32_t addr) { return ctm::ld_shared_v2_f32(addr); }
/// A 32-bit store at shared address `addr` (4-byte aligned).
__device__ __forceinline__ void store_shared_u32(std::uint32_t addr, std::uint32_t v) { ctm::st_shared_b32(addr, v); }
/// *addr += a, addr[1] += b in global memory, one reduction (red.global.add.v2.f32; 8-byte aligned).
__device__ __forceinline__ void reduce_add_f32x2(float* addr, float a, float b) { ctm::red_global_v2_f32_add(addr, a, b); }
/// A flag's value, with the writes its releaser made before it visible after (acquire, GPU scope).
__device__ __forceinline__ std::uint32_t load_acquire_gpu(std::uint32_t const* addr) {
  return ctm::ld_acquire_gpu_global_b32(addr);
}
/// Sets a flag after this thread's earlier writes (release, GPU scope).
__device__ __forceinline__ void store_release_gpu(std::uint32_t* addr, std::uint32_t v) {
  ctm::st_release_gpu_global_b32(addr, v);
}
/// A count's value, with the writes made before each release that added to it visible after.
__device__ __forceinline__ std::uint64_t load_acquire_gpu(std::uint64_t const* addr) {
  return ctm::ld_acquire_gpu_global_b64(addr);
}
/// Adds `v` to a count after this thread's earlier writes (release, GPU scope); returns the count before.
__device__ __forceinline__ std::uint64_t fetch_add_release_gpu(std::uint64_t* addr, std::uint64_t v) {
  return ctm::atom_release_gpu_global_add_u64(addr, v);
}
/// %globaltimer: nanoseconds on a clock every SM shares (a spin's bound; updated about every us).
__device__ __forceinline__ std::uint64_t global_timer_ns() { return ctm::globaltimer(); }
/// Sleeps about `ns` nanoseconds (a spin's backoff).
__device__ __forceinline__ void sleep_ns(std::uint32_t ns) { ctm::nanosleep_u32(ns); }

}  // namespace cute_cpp::arch
#endif
