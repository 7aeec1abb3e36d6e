// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The sm_120a FP4 GEMM family's host side (no kernel: gemm_fp4_sm120.cu defines the entry points,
// built only when CUTE_CPP_ARCHS holds 120a, into cute_cpp::gemm_fp4):
//   quantize_fp4   bf16 (rows, K) -> packed E2M1 + scale factors (+ NVFP4's tensor scale)
//   run_gemm_fp4   D = (A x SFA)(B x SFB)^T x ga x gb, bf16 out, A (M, K), B (N, K), both K-major
//   run_gemv_fp4   the same for M = 1..16 (decode), a tile of 16 rows
// Operand layout (what quantize_fp4 writes and the GEMM reads): data row-major, K/2 bytes a row,
// element 2j in the low nibble of byte j; factors row-major, K/16 (NVFP4, UE4M3) or K/32 (MXFP4,
// UE8M0) bytes a row. Constraints [gemm.fp4.arguments]: K a positive multiple of 128, pointers
// non-null device memory, data 16-byte and factors 8-byte aligned, D 4-byte aligned with ldd even
// and >= N; GEMV: 1 <= M <= 16. [gemm.fp4.quantize]: K a multiple of the scale block, x and data
// 16-byte aligned, ldx a multiple of 8.
#include <cute_cpp/host/arguments.hpp>  // check_device_pointers, check_stream
#include <cute_cpp/host/error.hpp>      // argument_error

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace cute_cpp::kernels {

/// NVFP4 (16 E2M1 a UE4M3 factor, a float tensor scale) or MXFP4 (32 E2M1 a UE8M0 factor).
enum class Fp4Format { nvfp4, mxfp4 };

/// Elements per scale factor.
[[nodiscard]] constexpr int fp4_scale_block(Fp4Format f) { return f == Fp4Format::nvfp4 ? 16 : 32; }

/// One FP4 operand in device memory: (rows, K) packed E2M1, its factors, and its tensor (decode)
/// scale, a device float the result is multiplied by (NVFP4; null means 1).
struct Fp4Operand {
  std::uint8_t const* data = nullptr;
  std::uint8_t const* scales = nullptr;
  float const* global_scale = nullptr;
};

/// D (M, N) bf16 row-major with ldd elements between rows = A (M, K) x B (N, K)^T, both FP4.
struct Fp4GemmArguments {
  Fp4Operand a, b;
  __nv_bfloat16* d = nullptr;
  std::int64_t m = 0, n = 0, k = 0, ldd = 0;
};

/// Where quantize_fp4 writes: data (rows x K/2 bytes), scales (rows x K/block), and for NVFP4 the
/// tensor's decode scale (one float) after its largest magnitude (one float of workspace).
struct Fp4Quantized {
  std::uint8_t* data = nullptr;
  std::uint8_t* scales = nullptr;
  float* global_scale = nullptr;
  float* amax_workspace = nullptr;
};

/// The K tile of both kernels: K must be a multiple of it (and so of either scale block).
inline constexpr std::int64_t fp4_k_tile = 128;
/// The most rows run_gemv_fp4 takes.
inline constexpr std::int64_t fp4_gemv_max_m = 16;

/// x (rows, K) bf16, ldx elements between rows -> out. NVFP4: tensor scale = amax / (6 x 448).
void quantize_fp4(Fp4Format format, __nv_bfloat16 const* x, std::int64_t ldx, std::int64_t rows, std::int64_t k,
                  Fp4Quantized const& out, cudaStream_t stream = nullptr);
/// D = (A x SFA)(B x SFB)^T x ga x gb on sm_120a (128 x 128 tiles, mma.sync m16n8k64 block_scale).
void run_gemm_fp4(Fp4Format format, Fp4GemmArguments const& args, cudaStream_t stream = nullptr);
/// The same for 1 <= M <= 16: 16 x 32 tiles, so N / 32 blocks stream B.
void run_gemv_fp4(Fp4Format format, Fp4GemmArguments const& args, cudaStream_t stream = nullptr);

namespace detail {

inline bool misaligned(void const* p, std::uintptr_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes != 0; }

/// The host checks of run_gemm_fp4 / run_gemv_fp4 (std::invalid_argument naming gemm.fp4.arguments).
inline void check_gemm_fp4(char const* what, Fp4GemmArguments const& g, std::int64_t max_m, cudaStream_t stream) {
  auto const fail = [&](std::string const& why) { host::argument_error("gemm.fp4.arguments", std::string(what) + ": " + why); };
  if (g.k <= 0 || g.k % fp4_k_tile != 0)
    fail("K must be a positive multiple of " + std::to_string(fp4_k_tile) + " (got " + std::to_string(g.k) + ")");
  if (g.m < 0 || g.n < 0 || g.m > max_m)
    fail("M must be in 0.." + std::to_string(max_m) + " and N >= 0 (got M " + std::to_string(g.m) + ", N " +
         std::to_string(g.n) + ")");
  if (g.m > (std::int64_t{1} << 30) || g.n > (std::int64_t{1} << 30) || g.k > (std::int64_t{1} << 30))
    fail("M, N and K must stay below 2^30");
  if (g.ldd < g.n || g.ldd % 2 != 0) fail("ldd must be even and >= N (got " + std::to_string(g.ldd) + ")");
  if (misaligned(g.a.data, 16) || misaligned(g.b.data, 16)) fail("A and B data must be 16-byte aligned");
  if (misaligned(g.a.scales, 8) || misaligned(g.b.scales, 8)) fail("A and B scale factors must be 8-byte aligned");
  if (misaligned(g.d, 4)) fail("D must be 4-byte aligned");
  if (g.m == 0 || g.n == 0) return;
  host::PointerArgument const pointers[] = {
      {"a.data", g.a.data}, {"a.scales", g.a.scales}, {"b.data", g.b.data}, {"b.scales", g.b.scales}, {"d", g.d}};
  host::check_device_pointers("gemm.fp4", pointers, stream);
  host::check_stream("gemm.fp4", stream);
}

/// The host checks of quantize_fp4 (std::invalid_argument naming gemm.fp4.quantize).
inline void check_quantize_fp4(Fp4Format format, __nv_bfloat16 const* x, std::int64_t ldx, std::int64_t rows,
                               std::int64_t k, Fp4Quantized const& out, cudaStream_t stream) {
  auto const fail = [&](std::string const& why) { host::argument_error("gemm.fp4.quantize", "quantize_fp4: " + why); };
  int const block = fp4_scale_block(format);
  if (k <= 0 || k % block != 0)
    fail("K must be a positive multiple of the scale block " + std::to_string(block) + " (got " + std::to_string(k) + ")");
  if (rows < 0 || rows > (std::int64_t{1} << 30) || k > (std::int64_t{1} << 30)) fail("rows and K must be in 0..2^30");
  if (ldx < k || ldx % 8 != 0) fail("ldx must be >= K and a multiple of 8 (got " + std::to_string(ldx) + ")");
  if (misaligned(x, 16) || misaligned(out.data, 16)) fail("x and data must be 16-byte aligned");
  if (format == Fp4Format::nvfp4 && (out.global_scale == nullptr || out.amax_workspace == nullptr))
    fail("NVFP4 needs global_scale and amax_workspace (one float each)");
  if (rows == 0) return;
  host::PointerArgument const pointers[] = {{"x", x}, {"data", out.data}, {"scales", out.scales}};
  host::check_device_pointers("gemm.fp4.quantize", pointers, stream);
  host::check_stream("gemm.fp4.quantize", stream);
}

}  // namespace detail

}  // namespace cute_cpp::kernels
