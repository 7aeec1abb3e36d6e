// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16: warp-wide loads of 8x8 b16 matrices
// from shared memory into the mma.sync fragment layout. Lanes 0-7 give the row addresses of
// matrix 0, lanes 8-15 of matrix 1, and so on (x1 reads lanes 0-7, x2 lanes 0-15).
// CuTeDSL: cute.nvgpu.warp.LdMatrix8x8x16bOp underneath. Targets: sm_90a, sm_100a, sm_120a.
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

}  // namespace ctm
#endif
