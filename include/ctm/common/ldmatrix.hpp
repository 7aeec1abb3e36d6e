// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16: warp-wide loads of 8x8 b16 matrices
// from shared memory into the mma.sync fragment layout. Lanes 0-7 give the row addresses of
// matrix 0, lanes 8-15 of matrix 1, and so on (x1 reads lanes 0-7, x2 lanes 0-15).
// Also the 8-bit forms of sm_100a and sm_120a (m16n16 .b8 transposed; m8n16 FP6/FP4 unpacking),
// a compile error on sm_90a. CuTeDSL: cute.nvgpu.warp.LdMatrix8x8x16bOp, LdMatrix16x16x8bOp.
// Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE, cvta_to_shared_u32

#if defined(__CUDACC__)
namespace ctm {

/// ldmatrix.sync.aligned.m8n8.x1.shared.b16 {d0}, [row_addr].
/// @pre each row address is 16-byte aligned shared memory.
CTM_DEVICE void ldmatrix_x1(std::uint32_t& d0, void const* row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n"
               : "=r"(d0)
               : "r"(cvta_to_shared_u32(row_addr)));
}
/// ldmatrix.sync.aligned.m8n8.x2.shared.b16 {d0, d1}, [row_addr].
CTM_DEVICE void ldmatrix_x2(std::uint32_t& d0, std::uint32_t& d1, void const* row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(d0), "=r"(d1)
               : "r"(cvta_to_shared_u32(row_addr)));
}
/// ldmatrix.sync.aligned.m8n8.x4.shared.b16 {d0, d1, d2, d3}, [row_addr].
CTM_DEVICE void ldmatrix_x4(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t& d2,
                            std::uint32_t& d3, void const* row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(cvta_to_shared_u32(row_addr)));
}
/// ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16: each 8x8 matrix is transposed on the way.
CTM_DEVICE void ldmatrix_x1_trans(std::uint32_t& d0, void const* row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
               : "=r"(d0)
               : "r"(cvta_to_shared_u32(row_addr)));
}
/// ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16.
CTM_DEVICE void ldmatrix_x2_trans(std::uint32_t& d0, std::uint32_t& d1, void const* row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(d0), "=r"(d1)
               : "r"(cvta_to_shared_u32(row_addr)));
}
/// ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16.
CTM_DEVICE void ldmatrix_x4_trans(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t& d2,
                                  std::uint32_t& d3, void const* row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(cvta_to_shared_u32(row_addr)));
}

// ---- 8-bit forms (sm_100a, sm_120a) ----

/// ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {d0, d1}, [row_addr]: one 16x16 byte matrix,
/// transposed (lanes 0-15 give the row addresses). Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE void ldmatrix_m16n16_x1_trans_b8(std::uint32_t& d0, std::uint32_t& d1, void const* row_addr) {
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm volatile("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];\n"
               : "=r"(d0), "=r"(d1)
               : "r"(cvta_to_shared_u32(row_addr)));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
}
/// ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8: two 16x16 byte matrices, transposed.
template <class Target = void>
CTM_DEVICE void ldmatrix_m16n16_x2_trans_b8(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t& d2, std::uint32_t& d3,
                                              void const* row_addr) {
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm volatile("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(cvta_to_shared_u32(row_addr)));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
}
/// ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32: four 8x16 matrices of packed
/// six-bit values padded to bytes (FP6 operands), expanded to one byte each. Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE void ldmatrix_m8n16_x4_b8x16_b6x16_p32(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t& d2, std::uint32_t& d3,
                                                    void const* row_addr) {
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm volatile("ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(cvta_to_shared_u32(row_addr)));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
}
/// ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64: four 8x16 matrices of packed
/// four-bit values padded to bytes (FP4 operands), expanded to one byte each. Target: sm_100a, sm_120a.
template <class Target = void>
CTM_DEVICE void ldmatrix_m8n16_x4_b8x16_b4x16_p64(std::uint32_t& d0, std::uint32_t& d1, std::uint32_t& d2, std::uint32_t& d3,
                                                    void const* row_addr) {
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  asm volatile("ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(cvta_to_shared_u32(row_addr)));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-sm120a-only]: ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64 does not exist on sm_90a; "
                "build this translation unit for 100a or 120a");
#  endif
#endif
}

}  // namespace ctm
#endif
