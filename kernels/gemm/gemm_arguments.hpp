// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// A GEMM's run-time half, GemmProblemArguments, and its checks. The operands of C = A B:
// A is M x K: K-major = row-major (lda >= K), MN-major = column-major (lda >= M).
// B is K x N: K-major = column-major (ldb >= K), MN-major = row-major (ldb >= N).
// C is M x N, row-major (ldc >= N) or, with layout_c = LayoutEnum::ColMajor, column-major (ldc >= M).
// A gated epilogue_op (epilogue::SwiGLU) writes C[m, j] = act(gate) * up of the gate and up
// columns that B interleaves in blocks of 8 (epilogue/fusion.hpp): C is then M x N/2.
// An FP8 C (TC e4m3 or e5m2) is quantized by 1 x 128 blocks of a row, each block's scale computed
// from its outputs and written to output_scales (epilogue/block_quantize.hpp).
// check_gemm_arguments: the rules that need no device, once a call, before any device query;
// check_block_scales, check_output_scales, check_plan_shape: those that need the plan or device.
#include <cute_cpp/kernels/gemm/gemm_decomposition.hpp>  // Decomposition

#include <cute_cpp/epilogue/block_quantize.hpp>  // OutputBlockScales
#include <cute_cpp/epilogue/fusion.hpp>          // Identity, SwiGLU
#include <cute_cpp/host/arguments.hpp>           // PointerArgument, check_device_pointers
#include <cute_cpp/host/error.hpp>               // argument_error
#include <cute_cpp/operand_modes.hpp>            // OperandMajorMode, LayoutEnum

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace cute_cpp::kernels {

/// The operand of a GEMM that no kernel before it in the stream writes (a layer's weights). Under
/// programmatic dependent launch the kernel starts while the kernel before it still runs and
/// waits for it before touching memory that kernel may write; this operand's part of the first
/// stages is loaded before that wait, so its DRAM latency overlaps the kernel before.
enum class IndependentOperand : std::uint8_t { None, A, B };

/// Blockwise FP8 scales (DeepSeek-V3's): one float per row of A and 128 of K (1 x 128, an
/// activation's), one per 128 rows of the weight B and 128 of K (128 x 128). The real operands are
/// A[m, k] * a(m, k / 128) and B[n, k] * b(n / 128, k / 128). Scale (i, kb) is at
/// i * row_stride + kb * k_stride: row-major (M, K/128) is {K/128, 1}; the K-block-major
/// (K/128, M) of DeepGEMM is {1, M}. Only a plan with GemmConfig::block_scaled reads them.
struct BlockScales {
  float const* a = nullptr;
  std::int64_t a_row_stride = 0, a_k_stride = 0;
  float const* b = nullptr;
  std::int64_t b_row_stride = 0, b_k_stride = 0;
  std::int64_t b_group_stride = 0;  ///< a grouped GEMM's: floats from one group's B scales to the next
};

/// The run-time half of a GEMM: pointers, leading dimensions, sizes, the epilogue functor's
/// parameters, how the work is cut. It depends on the element types and the functor only, so one
/// set of arguments runs on any plan of those types (the heuristic's choice among tiles).
template <class TA, class TB, class TC, class EpilogueOp>
struct GemmProblemArguments {
  TA const* a = nullptr;
  std::int64_t lda = 0;
  TB const* b = nullptr;
  std::int64_t ldb = 0;
  TC* c = nullptr;
  std::int64_t ldc = 0;
  std::int64_t m = 0, n = 0, k = 0;  ///< n: B's columns (C's too, but twice C's for a gated epilogue)
  EpilogueOp epilogue_op{};
  /// Tile rows per rasterization group (0: the default); CuTeDSL's max_swizzle_size.
  int raster_group_rows = 0;
  /// How the work is cut; split-K and stream-K take the workspace.
  Decomposition decomposition = Decomposition::Heuristic;
  /// SplitK's K ranges per tile of the last, partial wave (n > 1; 0 chooses). 0 otherwise.
  int k_splits = 0;
  /// Split-K's or stream-K's workspace, at least gemm_workspace_bytes(args) bytes, 16-byte
  /// aligned, zeroed once when allocated: the kernels leave its counters zeroed, so one workspace
  /// serves any later sequence of GEMMs of any shapes and plans, one GEMM at a time (a stream's).
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  /// The operand whose first stages may load before the previous kernel ends (weights).
  IndependentOperand independent = IndependentOperand::None;
  /// The operands' block scales (a plan with GemmConfig::block_scaled needs them; others refuse them).
  BlockScales block_scales{};
  /// Where an FP8 C's 1 x 128 block scales go ((M, ceil(C's columns / 128)) at these strides); an
  /// FP8 C needs them, others refuse them.
  epilogue::OutputBlockScales output_scales{};
};

/// The checks of a GEMM's arguments that need no device, made once by every entry point before it
/// touches one (so a bad call fails the same way with or without a GPU, and writes nothing; what it
/// calls then takes the arguments _unchecked):
/// pointers set [gemm.pointers], sizes at least 1 [gemm.shape], leading dimensions that cover a
/// row or column [gemm.leading-dimension], 16-byte aligned operands and leading dimensions (TMA's
/// [tma.global.address], [tma.global.stride]), and C overlapping neither A nor B [gemm.aliasing].
template <class TA, class TB, class TC, class Op>
void check_gemm_arguments(GemmProblemArguments<TA, TB, TC, Op> const& a, OperandMajorMode major_a,
                          OperandMajorMode major_b, LayoutEnum layout_c, bool gated) {
  using host::argument_error;
  if (a.a == nullptr || a.b == nullptr || a.c == nullptr)
    argument_error("gemm.pointers", std::string("A, B and C must be device pointers (") +
                                        (a.a == nullptr ? "A" : a.b == nullptr ? "B" : "C") + " is null)");
  if (a.m < 1 || a.n < 1 || a.k < 1)
    argument_error("gemm.shape", "M, N and K must be at least 1 (got " + std::to_string(a.m) + ", " +
                                     std::to_string(a.n) + ", " + std::to_string(a.k) + ")");
  std::int64_t const c_cols = gated ? a.n / 2 : a.n;
  struct Operand {
    char const* name;
    void const* p;
    std::int64_t ld, rows, cols;  // cols: the contiguous extent a row must hold (ld >= cols)
    std::size_t bytes;
  };
  bool const a_k = major_a == OperandMajorMode::K, b_k = major_b == OperandMajorMode::K;
  bool const c_row = layout_c == LayoutEnum::RowMajor;
  Operand const ops[] = {{"A", a.a, a.lda, a_k ? a.m : a.k, a_k ? a.k : a.m, sizeof(TA)},
                         {"B", a.b, a.ldb, b_k ? a.n : a.k, b_k ? a.k : a.n, sizeof(TB)},
                         {"C", a.c, a.ldc, c_row ? a.m : c_cols, c_row ? c_cols : a.m, sizeof(TC)}};
  for (Operand const& o : ops) {
    if (o.ld < o.cols)
      argument_error("gemm.leading-dimension", std::string(o.name) + "'s leading dimension (" + std::to_string(o.ld) +
                                                   ") is below its contiguous extent (" + std::to_string(o.cols) + ")");
    if (reinterpret_cast<std::uintptr_t>(o.p) % 16 != 0)
      argument_error("tma.global.address", std::string(o.name) + "'s address must be 16-byte aligned (got address % 16 = " +
                                               std::to_string(reinterpret_cast<std::uintptr_t>(o.p) % 16) + ")");
    if (o.rows > 1 && (std::uint64_t(o.ld) * o.bytes) % 16 != 0)
      argument_error("tma.global.stride", std::string(o.name) + "'s leading dimension (" + std::to_string(o.ld) +
                                              " elements) must be a multiple of 16 bytes");
  }
  // The byte ranges each operand spans: C must not share a byte with A or B.
  auto const span = [](Operand const& o) {
    auto const begin = reinterpret_cast<std::uintptr_t>(o.p);
    return std::pair{begin, begin + (std::uint64_t(o.rows - 1) * std::uint64_t(o.ld) + std::uint64_t(o.cols)) * o.bytes};
  };
  auto const [c_begin, c_end] = span(ops[2]);
  for (int i = 0; i < 2; ++i) {
    auto const [begin, end] = span(ops[i]);
    if (begin < c_end && c_begin < end)
      argument_error("gemm.aliasing", std::string("C overlaps ") + ops[i].name +
                                          ": the kernel reads its inputs while it writes C; pass separate buffers");
  }
}

/// The arguments of a plan's GEMM.
template <class Plan>
using GemmArguments =
    GemmProblemArguments<typename Plan::TA, typename Plan::TB, typename Plan::TC, typename Plan::EpilogueOp>;

/// C = A B computed as C^T = B^T A^T: the same arguments for a plan `To` whose A is From's B and
/// whose B is From's A, writing C in the other layout. The epilogue must not depend on the
/// coordinates (it would see them swapped).
template <class To, class From>
GemmArguments<To> swap_ab_arguments(GemmArguments<From> const& args) {
  static_assert(std::is_same_v<typename To::TA, typename From::TB> && std::is_same_v<typename To::TB, typename From::TA> &&
                std::is_same_v<typename To::TC, typename From::TC> && To::major_a == From::major_b &&
                To::major_b == From::major_a && To::layout_c != From::layout_c,
                "cute-cpp [gemm.swap-ab]: the swapped plan's A, B and C must be the original's B, A and C transposed");
  static_assert(std::is_same_v<typename To::EpilogueOp, epilogue::Identity> &&
                std::is_same_v<typename From::EpilogueOp, epilogue::Identity>,
                "cute-cpp [gemm.swap-ab]: swapping A and B transposes the epilogue's coordinates; only Identity is swapped");
  static_assert(std::is_same_v<GemmArguments<To>, GemmArguments<From>>,
                "cute-cpp [gemm.swap-ab]: A and B are swapped between operands of one element type");
  GemmArguments<To> r = args;  // C, K, the decomposition and the workspace stay
  r.a = args.b, r.lda = args.ldb, r.m = args.n;
  r.b = args.a, r.ldb = args.lda, r.n = args.m;
  using enum IndependentOperand;
  r.independent = args.independent == A ? B : args.independent == B ? A : None;
  return r;
}

/// Block scales are given exactly to a block-scaled plan, with positive strides
/// [gemm.block-scales]: a plan that would ignore them refuses them rather than compute unscaled.
inline void check_block_scales(BlockScales const& s, bool block_scaled, cudaStream_t stream) {
  if (!block_scaled) {
    if (s.a != nullptr || s.b != nullptr)
      host::argument_error("gemm.block-scales", "this plan does not scale by blocks: use a block_scaled plan");
    return;
  }
  if (s.a_row_stride <= 0 || s.a_k_stride <= 0 || s.b_row_stride <= 0 || s.b_k_stride <= 0)
    host::argument_error("gemm.block-scales", "every scale stride is positive (got A's " +
                                                  std::to_string(s.a_row_stride) + ", " + std::to_string(s.a_k_stride) +
                                                  " and B's " + std::to_string(s.b_row_stride) + ", " +
                                                  std::to_string(s.b_k_stride) + ")");
  host::PointerArgument const scales[] = {{"block_scales.a", s.a}, {"block_scales.b", s.b}};
  host::check_device_pointers("gemm", scales, stream);
}

/// An FP8 C's block scales are given exactly to a plan with an FP8 C, with positive strides
/// [gemm.output-scales]: the output is meaningless without them, and a plan that writes no scales
/// refuses them rather than leave them unwritten.
inline void check_output_scales(epilogue::OutputBlockScales const& s, bool quantized, cudaStream_t stream) {
  if (!quantized) {
    if (s.data != nullptr)
      host::argument_error("gemm.output-scales", "this plan's C is not FP8: it writes no block scales");
    return;
  }
  if (s.data == nullptr)
    host::argument_error("gemm.output-scales", "an FP8 C is quantized by 1 x 128 blocks: give output_scales");
  if (s.row_stride <= 0 || s.block_stride <= 0)
    host::argument_error("gemm.output-scales", "the output scales' strides are positive (got " +
                                                   std::to_string(s.row_stride) + ", " +
                                                   std::to_string(s.block_stride) + ")");
  host::PointerArgument const scales[] = {{"output_scales", s.data}};
  host::check_device_pointers("gemm", scales, stream);
}

/// The shape rules Plan adds to check_gemm_arguments': a gated epilogue's N, and K's multiple for
/// TMA's 16-byte rows (8 elements of 16 bits, 16 of FP8, of the narrower operand).
template <class Plan>
void check_plan_shape(std::int64_t n, std::int64_t k) {
  if (Plan::gated && n % (2 * epilogue::SwiGLU::block) != 0)
    host::argument_error("gemm.gated", "a gated epilogue pairs blocks of 8 gate and 8 up columns: N must be a multiple "
                                       "of 16 (got " + std::to_string(n) + ")");
  constexpr int k_multiple = 16 / int(sizeof(typename Plan::TA) < sizeof(typename Plan::TB) ? sizeof(typename Plan::TA)
                                                                                             : sizeof(typename Plan::TB));
  if (k % k_multiple != 0)
    host::argument_error(k_multiple == 8 ? "gemm.k-multiple-of-8" : "gemm.k-multiple-of-16",
                         "K must be a multiple of " + std::to_string(k_multiple) + " elements (got " +
                             std::to_string(k) + "): TMA needs 16-byte row strides; pad K with zeros");
}

}  // namespace cute_cpp::kernels
