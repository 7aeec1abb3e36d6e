// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Global atomics (atom, returning the old value) and reductions (red, no result): add on f32,
// f16x2 and bf16x2 (.noftz), the 2-wide f32 vector add, min/max on f16x2 and bf16x2 (PTX has
// these only as vector forms: .v2 = two packed pairs), and add/min/max on s32/u32.
// PTX has no f32 min/max atomics (ptxas 13.0 rejects atom/red .min.f32): see docs/deviations.md.
// Packed halves are passed as their 32-bit patterns. Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

// ---- red (no result) ----

/// red.global.add.f32 [addr], v.
CTM_DEVICE void red_global_add_f32(float* addr, float v) {
  asm volatile("red.global.add.f32 [%0], %1;\n" ::"l"(addr), "f"(v) : "memory");
}
/// red.global.v2.f32.add [addr], {v0, v1}: two adjacent floats (addr 8-byte aligned).
CTM_DEVICE void red_global_v2_f32_add(float* addr, float v0, float v1) {
  asm volatile("red.global.v2.f32.add [%0], {%1, %2};\n" ::"l"(addr), "f"(v0), "f"(v1) : "memory");
}
/// red.global.add.noftz.f16x2 [addr], v.
CTM_DEVICE void red_global_add_noftz_f16x2(void* addr, std::uint32_t v) {
  asm volatile("red.global.add.noftz.f16x2 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}
/// red.global.add.noftz.bf16x2 [addr], v.
CTM_DEVICE void red_global_add_noftz_bf16x2(void* addr, std::uint32_t v) {
  asm volatile("red.global.add.noftz.bf16x2 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}
/// red.global.min.noftz.v2.f16x2 [addr], {v0, v1}: four halves (addr 8-byte aligned).
CTM_DEVICE void red_global_min_noftz_v2_f16x2(void* addr, std::uint32_t v0, std::uint32_t v1) {
  asm volatile("red.global.min.noftz.v2.f16x2 [%0], {%1, %2};\n" ::"l"(addr), "r"(v0), "r"(v1) : "memory");
}
/// red.global.max.noftz.v2.f16x2 [addr], {v0, v1}.
CTM_DEVICE void red_global_max_noftz_v2_f16x2(void* addr, std::uint32_t v0, std::uint32_t v1) {
  asm volatile("red.global.max.noftz.v2.f16x2 [%0], {%1, %2};\n" ::"l"(addr), "r"(v0), "r"(v1) : "memory");
}
/// red.global.min.noftz.v2.bf16x2 [addr], {v0, v1}.
CTM_DEVICE void red_global_min_noftz_v2_bf16x2(void* addr, std::uint32_t v0, std::uint32_t v1) {
  asm volatile("red.global.min.noftz.v2.bf16x2 [%0], {%1, %2};\n" ::"l"(addr), "r"(v0), "r"(v1) : "memory");
}
/// red.global.max.noftz.v2.bf16x2 [addr], {v0, v1}.
CTM_DEVICE void red_global_max_noftz_v2_bf16x2(void* addr, std::uint32_t v0, std::uint32_t v1) {
  asm volatile("red.global.max.noftz.v2.bf16x2 [%0], {%1, %2};\n" ::"l"(addr), "r"(v0), "r"(v1) : "memory");
}
/// red.global.add.u32 [addr], v.
CTM_DEVICE void red_global_add_u32(std::uint32_t* addr, std::uint32_t v) {
  asm volatile("red.global.add.u32 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}
/// red.global.min.s32 [addr], v.
CTM_DEVICE void red_global_min_s32(std::int32_t* addr, std::int32_t v) {
  asm volatile("red.global.min.s32 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}
/// red.global.max.s32 [addr], v.
CTM_DEVICE void red_global_max_s32(std::int32_t* addr, std::int32_t v) {
  asm volatile("red.global.max.s32 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}
/// red.global.min.u32 [addr], v.
CTM_DEVICE void red_global_min_u32(std::uint32_t* addr, std::uint32_t v) {
  asm volatile("red.global.min.u32 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}
/// red.global.max.u32 [addr], v.
CTM_DEVICE void red_global_max_u32(std::uint32_t* addr, std::uint32_t v) {
  asm volatile("red.global.max.u32 [%0], %1;\n" ::"l"(addr), "r"(v) : "memory");
}

// ---- atom (returns the old value) ----

/// atom.global.add.f32 d, [addr], v.
CTM_DEVICE float atom_global_add_f32(float* addr, float v) {
  float d; asm volatile("atom.global.add.f32 %0, [%1], %2;\n" : "=f"(d) : "l"(addr), "f"(v) : "memory"); return d;
}
/// atom.global.add.noftz.f16x2 d, [addr], v.
CTM_DEVICE std::uint32_t atom_global_add_noftz_f16x2(void* addr, std::uint32_t v) {
  std::uint32_t d; asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;\n" : "=r"(d) : "l"(addr), "r"(v) : "memory"); return d;
}
/// atom.global.add.noftz.bf16x2 d, [addr], v.
CTM_DEVICE std::uint32_t atom_global_add_noftz_bf16x2(void* addr, std::uint32_t v) {
  std::uint32_t d; asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;\n" : "=r"(d) : "l"(addr), "r"(v) : "memory"); return d;
}
/// atom.global.add.u32 d, [addr], v.
CTM_DEVICE std::uint32_t atom_global_add_u32(std::uint32_t* addr, std::uint32_t v) {
  std::uint32_t d; asm volatile("atom.global.add.u32 %0, [%1], %2;\n" : "=r"(d) : "l"(addr), "r"(v) : "memory"); return d;
}
/// atom.global.min.s32 d, [addr], v.
CTM_DEVICE std::int32_t atom_global_min_s32(std::int32_t* addr, std::int32_t v) {
  std::int32_t d; asm volatile("atom.global.min.s32 %0, [%1], %2;\n" : "=r"(d) : "l"(addr), "r"(v) : "memory"); return d;
}
/// atom.global.max.s32 d, [addr], v.
CTM_DEVICE std::int32_t atom_global_max_s32(std::int32_t* addr, std::int32_t v) {
  std::int32_t d; asm volatile("atom.global.max.s32 %0, [%1], %2;\n" : "=r"(d) : "l"(addr), "r"(v) : "memory"); return d;
}
/// atom.global.cas.b32 d, [addr], compare, v: stores v if *addr == compare; returns the old value.
CTM_DEVICE std::uint32_t atom_global_cas_b32(std::uint32_t* addr, std::uint32_t compare, std::uint32_t v) {
  std::uint32_t d; asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;\n" : "=r"(d) : "l"(addr), "r"(compare), "r"(v) : "memory"); return d;
}
/// atom.shared.add.f32 d, [addr], v: on this CTA's shared memory.
CTM_DEVICE float atom_shared_add_f32(float* smem_addr, float v) {
  float d;
  asm volatile("atom.shared.add.f32 %0, [%1], %2;\n" : "=f"(d) : "r"(cvta_to_shared_u32(smem_addr)), "f"(v) : "memory");
  return d;
}

}  // namespace ctm
#endif
