// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Loads, stores and atomics with memory-model semantics, for flags and semaphores between CTAs
// (persistent schedulers, stream-K fix-up, split-K): ld.acquire / ld.relaxed, st.release /
// st.relaxed, atom.acquire / atom.release / atom.acq_rel at GPU scope, ld.acquire at cluster
// scope on shared::cluster, 16-byte shared::cta loads and stores, and nanosleep. Targets:
// sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

// ---- loads ----

/// ld.acquire.gpu.global.b32: later reads and writes of this thread happen after it.
CTM_DEVICE std::uint32_t ld_acquire_gpu_global_b32(std::uint32_t const* addr) {
  std::uint32_t v; asm volatile("ld.acquire.gpu.global.b32 %0, [%1];\n" : "=r"(v) : "l"(addr) : "memory"); return v;
}
/// ld.relaxed.gpu.global.b32: a coherent load without ordering (poll, then fence).
CTM_DEVICE std::uint32_t ld_relaxed_gpu_global_b32(std::uint32_t const* addr) {
  std::uint32_t v; asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];\n" : "=r"(v) : "l"(addr) : "memory"); return v;
}
/// ld.acquire.gpu.global.b64 (a grid barrier's count).
CTM_DEVICE std::uint64_t ld_acquire_gpu_global_b64(std::uint64_t const* addr) {
  std::uint64_t v; asm volatile("ld.acquire.gpu.global.b64 %0, [%1];\n" : "=l"(v) : "l"(addr) : "memory"); return v;
}
/// ld.acquire.sys.global.b32.
CTM_DEVICE std::uint32_t ld_acquire_sys_global_b32(std::uint32_t const* addr) {
  std::uint32_t v; asm volatile("ld.acquire.sys.global.b32 %0, [%1];\n" : "=r"(v) : "l"(addr) : "memory"); return v;
}
/// ld.acquire.cluster.shared::cluster.b32: from a shared::cluster address (mapa).
CTM_DEVICE std::uint32_t ld_acquire_cluster_shared_cluster_b32(std::uint32_t cluster_addr) {
  std::uint32_t v; asm volatile("ld.acquire.cluster.shared::cluster.b32 %0, [%1];\n" : "=r"(v) : "r"(cluster_addr) : "memory"); return v;
}

// ---- stores ----

/// st.release.gpu.global.b32: earlier reads and writes of this thread happen before it.
CTM_DEVICE void st_release_gpu_global_b32(std::uint32_t* addr, std::uint32_t v) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}
/// st.relaxed.gpu.global.b32.
CTM_DEVICE void st_relaxed_gpu_global_b32(std::uint32_t* addr, std::uint32_t v) {
  asm volatile("st.relaxed.gpu.global.b32 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}
/// st.release.sys.global.b32.
CTM_DEVICE void st_release_sys_global_b32(std::uint32_t* addr, std::uint32_t v) {
  asm volatile("st.release.sys.global.b32 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}

// ---- ordered atomics ----

/// atom.release.gpu.global.add.u32 d, [addr], v (e.g. a producer's "tile done" counter).
CTM_DEVICE std::uint32_t atom_release_gpu_global_add_u32(std::uint32_t* addr, std::uint32_t v) {
  std::uint32_t d; asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;\n" : "=r"(d) : "l"(addr), "r"(v) : "memory"); return d;
}
/// atom.acq_rel.gpu.global.add.u32 d, [addr], v.
CTM_DEVICE std::uint32_t atom_acq_rel_gpu_global_add_u32(std::uint32_t* addr, std::uint32_t v) {
  std::uint32_t d; asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;\n" : "=r"(d) : "l"(addr), "r"(v) : "memory"); return d;
}
/// atom.release.gpu.global.add.u64 d, [addr], v (a grid barrier's arrival ticket).
CTM_DEVICE std::uint64_t atom_release_gpu_global_add_u64(std::uint64_t* addr, std::uint64_t v) {
  std::uint64_t d;
  asm volatile("atom.release.gpu.global.add.u64 %0, [%1], %2;\n" : "=l"(d) : "l"(addr), "l"(v) : "memory");
  return d;
}
/// atom.acquire.gpu.global.cas.b32 d, [addr], compare, v (a lock's acquire).
CTM_DEVICE std::uint32_t atom_acquire_gpu_global_cas_b32(std::uint32_t* addr, std::uint32_t compare, std::uint32_t v) {
  std::uint32_t d;
  asm volatile("atom.acquire.gpu.global.cas.b32 %0, [%1], %2, %3;\n" : "=r"(d) : "l"(addr), "r"(compare), "r"(v) : "memory");
  return d;
}
/// atom.release.gpu.global.exch.b32 d, [addr], v (a lock's release).
CTM_DEVICE std::uint32_t atom_release_gpu_global_exch_b32(std::uint32_t* addr, std::uint32_t v) {
  std::uint32_t d; asm volatile("atom.release.gpu.global.exch.b32 %0, [%1], %2;\n" : "=r"(d) : "l"(addr), "r"(v) : "memory"); return d;
}

// ---- shared memory ----

/// ld.shared.b32: one 32-bit word at a shared address (cvta_to_shared_u32). Volatile, so it
/// stays after the barrier wait that makes the word valid.
CTM_DEVICE std::uint32_t ld_shared_b32(std::uint32_t addr) {
  std::uint32_t v;
  asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(addr) : "memory");
  return v;
}
/// ld.shared.v2.b32: two 32-bit words at an 8-byte aligned shared address.
CTM_DEVICE uint2 ld_shared_v2_b32(std::uint32_t addr) {
  uint2 v;
  asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];\n" : "=r"(v.x), "=r"(v.y) : "r"(addr) : "memory");
  return v;
}

/// ld.shared.v4.b32: 16 bytes at a shared::cta address (cvta_to_shared_u32). Volatile, so loads
/// written before stores stay before them (a copy's loads in flight together).
CTM_DEVICE uint4 ld_shared_v4_b32(std::uint32_t addr) {
  uint4 d;
  asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];\n" : "=r"(d.x), "=r"(d.y), "=r"(d.z), "=r"(d.w) : "r"(addr) : "memory");
  return d;
}
/// st.shared.v4.b32 [addr], v.
CTM_DEVICE void st_shared_v4_b32(std::uint32_t addr, uint4 v) {
  asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}

/// ld.shared.v2.f32: two floats at an 8-byte aligned shared::cta address (cvta_to_shared_u32).
/// Volatile, so it stays after the barrier wait that makes the data visible.
CTM_DEVICE float2 ld_shared_v2_f32(std::uint32_t addr) {
  float2 d;
  asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];\n" : "=f"(d.x), "=f"(d.y) : "r"(addr) : "memory");
  return d;
}
/// st.shared.b32 [addr], v: 4 bytes at a shared::cta address (cvta_to_shared_u32), where the compiler
/// cannot tell that a pointer is shared and would store through a 64-bit generic address.
CTM_DEVICE void st_shared_b32(std::uint32_t addr, std::uint32_t v) {
  asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(addr), "r"(v) : "memory");
}

// ---- waiting ----

/// nanosleep.u32 t: suspends the thread for about t nanoseconds (0..1,000,000), a back-off in
/// polling loops.
CTM_DEVICE void nanosleep_u32(std::uint32_t t) { asm volatile("nanosleep.u32 %0;\n" ::"r"(t)); }

}  // namespace ctm
#endif
