// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16: warp-wide stores of 8x8 b16
// matrices from the mma fragment layout to shared memory (the inverse of ldmatrix; row
// addresses come from lanes 0-7 / 0-15 / 0-31). CuTeDSL: cute.nvgpu.warp.StMatrix8x8x16bOp
// underneath. Also the 8-bit m16n8 transposed forms of sm_100a and sm_120a (a compile error on
// sm_90a). Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE, cvta_to_shared_u32

#if defined(__CUDACC__)
namespace ctm {

/// stmatrix.sync.aligned.m8n8.x1.shared.b16 [row_addr], {r0}.
/// @pre each row address is 16-byte aligned shared memory.
CTM_DEVICE void stmatrix_x1(void* row_addr, std::uint32_t r0) {
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n" ::"r"(
                   cvta_to_shared_u32(row_addr)),
               "r"(r0)
               : "memory");
}
/// stmatrix.sync.aligned.m8n8.x2.shared.b16 [row_addr], {r0, r1}.
CTM_DEVICE void stmatrix_x2(void* row_addr, std::uint32_t r0, std::uint32_t r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n" ::"r"(
                   cvta_to_shared_u32(row_addr)),
               "r"(r0), "r"(r1)
               : "memory");
}
/// stmatrix.sync.aligned.m8n8.x4.shared.b16 [row_addr], {r0, r1, r2, r3}.
CTM_DEVICE void stmatrix_x4(void* row_addr, std::uint32_t r0, std::uint32_t r1, std::uint32_t r2,
                            std::uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(
                   cvta_to_shared_u32(row_addr)),
               "r"(r0), "r"(r1), "r"(r2), "r"(r3)
               : "memory");
}
/// stmatrix.sync.aligned.m8n8.x1.trans.shared.b16: each 8x8 matrix is transposed on the way.
CTM_DEVICE void stmatrix_x1_trans(void* row_addr, std::uint32_t r0) {
  asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};\n" ::"r"(
                   cvta_to_shared_u32(row_addr)),
               "r"(r0)
               : "memory");
}
/// stmatrix.sync.aligned.m8n8.x2.trans.shared.b16.
CTM_DEVICE void stmatrix_x2_trans(void* row_addr, std::uint32_t r0, std::uint32_t r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n" ::"r"(
                   cvta_to_shared_u32(row_addr)),
               "r"(r0), "r"(r1)
               : "memory");
}
/// stmatrix.sync.aligned.m8n8.x4.trans.shared.b16.
CTM_DEVICE void stmatrix_x4_trans(void* row_addr, std::uint32_t r0, std::uint32_t r1,
                                  std::uint32_t r2, std::uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(
                   cvta_to_shared_u32(row_addr)),
               "r"(r0), "r"(r1), "r"(r2), "r"(r3)
               : "memory");
}

// ---- 8-bit forms (sm_100a, sm_120a) ----

/// stmatrix.sync.aligned.m16n8.x1.trans.shared.b8: 1 16x8 byte matrices, transposed.
/// Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE void stmatrix_m16n8_x1_trans_b8(void* row_addr, std::uint32_t r0) {
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm volatile("stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%0], {%1};\n" ::"r"(
                   cvta_to_shared_u32(row_addr)),
               "r"(r0)
               : "memory");
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
}
/// stmatrix.sync.aligned.m16n8.x2.trans.shared.b8: 2 16x8 byte matrices, transposed.
/// Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE void stmatrix_m16n8_x2_trans_b8(void* row_addr, std::uint32_t r0, std::uint32_t r1) {
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm volatile("stmatrix.sync.aligned.m16n8.x2.trans.shared.b8 [%0], {%1, %2};\n" ::"r"(
                   cvta_to_shared_u32(row_addr)),
               "r"(r0), "r"(r1)
               : "memory");
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: stmatrix.sync.aligned.m16n8.x2.trans.shared.b8 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
}
/// stmatrix.sync.aligned.m16n8.x4.trans.shared.b8: 4 16x8 byte matrices, transposed.
/// Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE void stmatrix_m16n8_x4_trans_b8(void* row_addr, std::uint32_t r0, std::uint32_t r1, std::uint32_t r2, std::uint32_t r3) {
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm volatile("stmatrix.sync.aligned.m16n8.x4.trans.shared.b8 [%0], {%1, %2, %3, %4};\n" ::"r"(
                   cvta_to_shared_u32(row_addr)),
               "r"(r0), "r"(r1), "r"(r2), "r"(r3)
               : "memory");
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: stmatrix.sync.aligned.m16n8.x4.trans.shared.b8 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
}

}  // namespace ctm
#endif
