// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// mma.sync.aligned (warp-level MMA, row.col) for the shapes that exist on all three targets:
// f16 and bf16 m16n8k16 / m16n8k8, tf32 m16n8k8 / m16n8k4, and the fp8 (e4m3/e5m2) m16n8k32 /
// m16n8k16 forms from ctm/generated/mma_sync_fp8.hpp (PTX: sm_89+; ptxas 13.0 accepts them on
// sm_90a, sm_100a and sm_120a), and the s8/u8 m16n8k32 / m16n8k16 forms (s32 accumulators,
// optional .satfinite) from ctm/generated/mma_sync_int8.hpp. Fragments are 32-bit registers in PTX operand order d, a, b, c.
// CuTeDSL: cute.nvgpu.warp.MmaF16BF16Op underneath. Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>         // CTM_DEVICE
#include <ctm/generated/mma_sync_fp8.hpp>   // mma_m16n8k32_row_col_f32_e4m3_e4m3_f32, ...
#include <ctm/generated/mma_sync_int8.hpp>  // mma_m16n8k32_row_col_s32_s8_s8_s32, ...

#if defined(__CUDACC__)
namespace ctm {

// ---- f16 ----

/// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: D(16x8) = A(16x16) B(16x8) + C.
CTM_DEVICE void mma_m16n8k16_row_col_f32_f16_f16_f32(float (&d)[4], std::uint32_t const (&a)[4],
                                                     std::uint32_t const (&b)[2], float const (&c)[4]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}
/// mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 (packed f16 pairs in d and c).
CTM_DEVICE void mma_m16n8k16_row_col_f16_f16_f16_f16(std::uint32_t (&d)[2], std::uint32_t const (&a)[4],
                                                     std::uint32_t const (&b)[2], std::uint32_t const (&c)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};\n"
      : "=r"(d[0]), "=r"(d[1])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
}
/// mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32.
CTM_DEVICE void mma_m16n8k8_row_col_f32_f16_f16_f32(float (&d)[4], std::uint32_t const (&a)[2],
                                                    std::uint32_t const (&b)[1], float const (&c)[4]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

// ---- bf16 ----

/// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32.
CTM_DEVICE void mma_m16n8k16_row_col_f32_bf16_bf16_f32(float (&d)[4], std::uint32_t const (&a)[4],
                                                       std::uint32_t const (&b)[2], float const (&c)[4]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}
/// mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32.
CTM_DEVICE void mma_m16n8k8_row_col_f32_bf16_bf16_f32(float (&d)[4], std::uint32_t const (&a)[2],
                                                      std::uint32_t const (&b)[1], float const (&c)[4]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

// ---- tf32 ----

/// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 (a, b from cvt_rna_tf32_f32).
CTM_DEVICE void mma_m16n8k8_row_col_f32_tf32_tf32_f32(float (&d)[4], std::uint32_t const (&a)[4],
                                                      std::uint32_t const (&b)[2], float const (&c)[4]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}
/// mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32.
CTM_DEVICE void mma_m16n8k4_row_col_f32_tf32_tf32_f32(float (&d)[4], std::uint32_t const (&a)[2],
                                                      std::uint32_t const (&b)[1], float const (&c)[4]) {
  asm("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

}  // namespace ctm
#endif
