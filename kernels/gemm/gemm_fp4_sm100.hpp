// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The sm_100a block-scaled FP4 GEMM's host side (gemm_fp4_sm100.cu defines the entry points,
// built only when CUTE_CPP_ARCHS holds 100a, into cute_cpp::gemm_sm100):
//   run_gemm_fp4_sm100   D = (A x SFA)(B x SFB)^T x ga x gb, bf16 out, on tcgen05 block-scaled
//                        UMMAs (NVFP4: kind::mxf4nvf4; MXFP4: kind::mxf4), plans_fp4_sm100.hpp
//   fp4_scales_to_sm100  a row-major factor matrix (what quantize_fp4 and gemm_fp4.hpp write) in
//                        the layout this GEMM reads, on the host
// The arguments are gemm_fp4.hpp's Fp4GemmArguments: data as there (rows x K/2 bytes, row-major,
// element 2j in the low nibble of byte j). The factors differ: TMA loads a K block's factors of a
// tile as one box, straight into the shared layout tcgen05.cp reads (UmmaScaleFactorLayout), so
// global memory holds them in that layout over the whole tensor (fp4_sm100_scale_offset):
// 512-byte blocks of 128 rows x 4 factors (factor f of row r at 16 (r % 32) + 4 ((r / 32) % 4) +
// f % 4), the blocks of one group of 4 factors for every 128 rows side by side, then the next
// group. Rows are padded to a multiple of 128 (padding factors are 0); fp4_sm100_scale_bytes.
// NOTE: this orders the blocks K-outer, CUTLASS's Sm1xxBlkScaledConfig rows-outer: the same
// 512-byte blocks in another order, so one box per K block lands in the order tcgen05.cp reads.
#include <cute_cpp/kernels/gemm/gemm_fp4.hpp>  // Fp4Format, Fp4GemmArguments, detail::check_gemm_fp4

#include <cute_cpp/host/error.hpp>  // argument_error

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace cute_cpp::kernels {

/// The K block of the sm_100a FP4 plans: 256 values (128 bytes of packed E2M1). K must be a
/// multiple of it, so a K block holds whole groups of 4 factors in both formats.
inline constexpr std::int64_t fp4_sm100_k_tile = 256;

/// Byte offset of factor f (along K) of row `row` in the sm_100a scale layout of an operand of
/// `rows` rows (see the file comment).
///   fp4_sm100_scale_offset(0, 0, 300) = 0; (33, 5, 300) = 3 x 512 + 16 + 4 + 1 = 1557
[[nodiscard]] constexpr std::int64_t fp4_sm100_scale_offset(std::int64_t row, std::int64_t f, std::int64_t rows) {
  std::int64_t const row_blocks = (rows + 127) / 128;
  return ((f / 4) * row_blocks + row / 128) * 512 + (row % 32) * 16 + ((row / 32) % 4) * 4 + f % 4;
}

/// Bytes of an operand's factors in that layout: rows padded to 128, K / block factors a row.
///   fp4_sm100_scale_bytes(nvfp4, 300, 512) = 384 x 32 = 12288
[[nodiscard]] constexpr std::int64_t fp4_sm100_scale_bytes(Fp4Format format, std::int64_t rows, std::int64_t k) {
  return (rows + 127) / 128 * 128 * (k / fp4_scale_block(format));
}

/// Host memory: `row_major` (rows x K/block factors) -> `out` (fp4_sm100_scale_bytes bytes, the
/// padding zeroed). K a multiple of fp4_sm100_k_tile.
inline void fp4_scales_to_sm100(Fp4Format format, std::uint8_t const* row_major, std::int64_t rows, std::int64_t k,
                                std::uint8_t* out) {
  std::int64_t const factors = k / fp4_scale_block(format), bytes = fp4_sm100_scale_bytes(format, rows, k);
  for (std::int64_t i = 0; i < bytes; ++i) out[i] = 0;
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t f = 0; f < factors; ++f) out[fp4_sm100_scale_offset(r, f, rows)] = row_major[r * factors + f];
}

/// The tile run_gemm_fp4_sm100 runs: chosen by choose_gemm_sm100_tile on the device's SM count
/// (automatic; its pair is taken as 128 x 256), or named.
enum class Fp4Sm100Tile { automatic, tile128x128, tile128x256 };

/// D = (A x SFA)(B x SFB)^T x ga x gb on sm_100a; the factors in the sm_100a layout (above).
void run_gemm_fp4_sm100(Fp4Format format, Fp4GemmArguments const& args, cudaStream_t stream = nullptr,
                        Fp4Sm100Tile tile = Fp4Sm100Tile::automatic);

namespace detail {

/// The host checks of run_gemm_fp4_sm100 (std::invalid_argument naming gemm.fp4.arguments):
/// check_gemm_fp4's, and what TMA and the epilogue's 16-byte stores add: K a multiple of 256,
/// factors 16-byte aligned, D 16-byte aligned with ldd a multiple of 8.
inline void check_gemm_fp4_sm100(Fp4GemmArguments const& g, cudaStream_t stream) {
  auto const fail = [](std::string const& why) {
    host::argument_error("gemm.fp4.arguments", "run_gemm_fp4_sm100: " + why);
  };
  if (g.k <= 0 || g.k % fp4_sm100_k_tile != 0)
    fail("K must be a positive multiple of " + std::to_string(fp4_sm100_k_tile) + " (got " + std::to_string(g.k) + ")");
  if (misaligned(g.a.scales, 16) || misaligned(g.b.scales, 16)) fail("A and B scale factors must be 16-byte aligned");
  if (misaligned(g.d, 16) || g.ldd % 8 != 0)
    fail("D must be 16-byte aligned and ldd a multiple of 8 (got " + std::to_string(g.ldd) + ")");
  check_gemm_fp4("run_gemm_fp4_sm100", g, std::int64_t{1} << 30, stream);
}

}  // namespace detail

}  // namespace cute_cpp::kernels
