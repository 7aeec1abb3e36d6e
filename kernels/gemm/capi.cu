// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry point to the Hopper GEMM (libcute_cpp_gemm.so and its generated header
// cute_cpp_gemm.h, made by cute_cpp_export): the bf16 linear layer through the tile heuristic.
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/host/arguments.hpp>
#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <type_traits>

namespace {

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;

/// A C call's operands, leading dimensions, sizes and workspace as Plan's arguments, checked
/// (the rules that need no device: check_gemm_arguments), once: the calls below run them unchecked.
template <class Plan>
kn::GemmArguments<Plan> c_arguments(void const* a, long long lda, void const* b, long long ldb, void* c, long long ldc,
                                    long long m, long long n, long long k, void* workspace,
                                    unsigned long long workspace_bytes) {
  kn::GemmArguments<Plan> args;
  args.a = static_cast<typename Plan::TA const*>(a), args.lda = lda;
  args.b = static_cast<typename Plan::TB const*>(b), args.ldb = ldb;
  args.c = static_cast<typename Plan::TC*>(c), args.ldc = ldc;
  args.m = m, args.n = n, args.k = k;
  args.workspace = workspace, args.workspace_bytes = workspace_bytes;
  kn::check_gemm_arguments(args, Plan::major_a, Plan::major_b, Plan::layout_c, false);
  return args;
}

/// An optional parameter array (bias), where it is given: memory of the current device.
void check_optional(char const* name, float const* p, void* stream) {
  if (p == nullptr) return;
  host::PointerArgument const pointers[] = {{name, p}};
  host::check_device_pointers("gemm", pointers, static_cast<cudaStream_t>(stream));
}

/// Rules gemm.scaling and gemm.accumulation of an FP8 call: scaling 0 (per tensor), 1 (rowwise) or
/// 2 (blocks); accumulation 0 (fast) or 1 (two-level), block scaling promoting each K block (1).
void check_fp8_forms(int scaling, int accumulation) {
  if (scaling < 0 || scaling > 2) host::argument_error("gemm.scaling", "scaling is 0 (per tensor), 1 (rowwise) or 2 (blocks)");
  if (accumulation < 0 || accumulation > 1)
    host::argument_error("gemm.accumulation", "accumulation is 0 (fast: wgmma's accumulator) or 1 (two-level)");
  if (scaling == 2 && accumulation != 1)
    host::argument_error("gemm.accumulation",
                         "block scaling promotes each K block into an fp32 accumulator: accumulation 1 (two-level)");
}

/// Plan's run of arguments c_arguments checked, telling the workspace it uses first.
template <class Plan>
void run_reporting(kn::GemmArguments<Plan> const& args, unsigned long long* workspace_needed, void* stream) {
  if (workspace_needed != nullptr) *workspace_needed = kn::gemm_workspace_bytes<Plan>(args);
  kn::run_gemm_unchecked<Plan>(args, static_cast<cudaStream_t>(stream));
}

}  // namespace

extern "C" {

/// C = A B^T: A [m, k] and B [n, k] row-major bf16 (B as nn.Linear stores its weight), C [m, n]
/// row-major bf16, fp32 accumulation, with the plan the tile heuristic picks for the shape.
/// lda, ldb, ldc: elements between rows. workspace: split-K / stream-K partials, zeroed before its
/// first use (the kernels leave it zeroed), or null for whole tiles; workspace_needed (may be null)
/// receives the bytes the heuristic's choice uses. stream: a cudaStream_t. Returns 0, or 1 with the
/// error (naming the rule) in `message`; nothing is written on error.
int cute_cpp_gemm_bf16(void const* a, long long lda, void const* b, long long ldb, void* c, long long ldc, long long m,
                       long long n, long long k, void* workspace, unsigned long long workspace_bytes,
                       unsigned long long* workspace_needed, void* stream, char* message,
                       unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    auto const args = c_arguments<kn::plans::Bf16TN>(a, lda, b, ldb, c, ldc, m, n, k, workspace, workspace_bytes);
    if (workspace_needed != nullptr) *workspace_needed = kn::gemm_bf16_tn_workspace_bytes(args);
    kn::run_gemm_auto_unchecked<kn::plans::bf16, kn::plans::K, kn::plans::K>(args, static_cast<cudaStream_t>(stream));
  });
}

/// C = act(alpha * A B^T + beta * C + bias) in one pass (the fused epilogue, 128 x 256 tiles):
/// A, B, C and the leading dimensions as cute_cpp_gemm_bf16; beta != 0 reads C's values before
/// overwriting them; bias: n floats on the device, or null; activation: 0 none, 1 ReLU, 2 GELU (tanh
/// form), 3 SiLU. workspace, workspace_needed, stream and the result as cute_cpp_gemm_bf16.
int cute_cpp_gemm_bf16_epilogue(void const* a, long long lda, void const* b, long long ldb, void* c, long long ldc,
                                long long m, long long n, long long k, float alpha, float beta, float const* bias,
                                int activation, void* workspace, unsigned long long workspace_bytes,
                                unsigned long long* workspace_needed, void* stream, char* message,
                                unsigned long message_size) {
  auto const run = [&]<class Plan>(std::type_identity<Plan>) {
    auto args = c_arguments<Plan>(a, lda, b, ldb, c, ldc, m, n, k, workspace, workspace_bytes);
    args.epilogue_op.alpha = alpha, args.epilogue_op.beta = beta;
    args.epilogue_op.source = beta != 0.0f ? args.c : nullptr, args.epilogue_op.ld_source = ldc;
    args.epilogue_op.bias = bias;
    check_optional("bias", bias, stream);
    run_reporting<Plan>(args, workspace_needed, stream);
  };
  return kn::capi_try(message, message_size, [&] {
    switch (activation) {
      case 0: return run(std::type_identity<kn::plans::Bf16TNLinear>{});
      case 1: return run(std::type_identity<kn::plans::Bf16TNRelu>{});
      case 2: return run(std::type_identity<kn::plans::Bf16TNGelu>{});
      case 3: return run(std::type_identity<kn::plans::Bf16TNSilu>{});
      default: host::argument_error("gemm.activation", "activation is 0 (none), 1 (ReLU), 2 (GELU) or 3 (SiLU)");
    }
  });
}

/// C [m, n] bf16 row-major = A B^T of FP8 operands stored scaled: A [m, k] row-major (a_dtype 0
/// e4m3, 1 e5m2), B [n, k] row-major e4m3 (a weight), lda, ldb, ldc elements between rows, fp32
/// accumulation. scaling 0: scale_a and scale_b one float each (per tensor); 1: scale_a one per
/// row of A and scale_b one per row of B (C's columns) (rowwise); 2: blocks (e4m3 A only),
/// scale_a (i, kb) for row i and K block kb of 128 at i * a_row_stride + kb * a_k_stride,
/// scale_b (j, kb) for rows 128 j .. 128 j + 127 of B at j * b_row_stride + kb * b_k_stride, each
/// K block's products promoted into the accumulator with their scales. accumulation 0: wgmma's
/// accumulator throughout (cuBLASLt's fast accumulation; scaling 0 and 1); 1: two-level, each K
/// block of 128 added into an fp32 accumulator (cuBLASLt without fast accumulation; the only form
/// of scaling 2). bias: n floats added after the scaling (scaling 0 and 1), or null. Scales and
/// bias in device memory. The strides are read for scaling 2 only. workspace, workspace_needed,
/// stream and the result as cute_cpp_gemm_bf16.
int cute_cpp_gemm_fp8(void const* a, long long lda, int a_dtype, void const* b, long long ldb, void* c, long long ldc,
                      long long m, long long n, long long k, int scaling, int accumulation, float const* scale_a,
                      long long a_row_stride, long long a_k_stride, float const* scale_b, long long b_row_stride,
                      long long b_k_stride, float const* bias, void* workspace, unsigned long long workspace_bytes,
                      unsigned long long* workspace_needed, void* stream, char* message, unsigned long message_size) {
  auto const run = [&]<class Plan>(std::type_identity<Plan>) {
    auto args = c_arguments<Plan>(a, lda, b, ldb, c, ldc, m, n, k, workspace, workspace_bytes);
    if constexpr (Plan::block_scaled) {
      if (bias != nullptr) host::argument_error("gemm.bias", "block-scaled FP8 takes no bias (add it after)");
      args.block_scales = {scale_a, a_row_stride, a_k_stride, scale_b, b_row_stride, b_k_stride};
    } else {
      args.epilogue_op.scale_a = scale_a, args.epilogue_op.scale_b = scale_b, args.epilogue_op.bias = bias;
      args.epilogue_op.a_per_row = args.epilogue_op.b_per_column = scaling == 1;
      host::PointerArgument const scales[] = {{"scale_a", scale_a}, {"scale_b", scale_b}};
      host::check_device_pointers("gemm", scales, static_cast<cudaStream_t>(stream));
      check_optional("bias", bias, stream);
    }
    run_reporting<Plan>(args, workspace_needed, stream);
  };
  return kn::capi_try(message, message_size, [&] {
    check_fp8_forms(scaling, accumulation);
    if (a_dtype < 0 || a_dtype > 1) host::argument_error("gemm.dtype", "a_dtype is 0 (e4m3) or 1 (e5m2)");
    if (scaling == 2) {
      if (a_dtype != 0) host::argument_error("gemm.dtype", "block scaling takes an e4m3 A");
      return kn::plans::with_blockwise_plan(n, run);
    }
    if (accumulation == 1) {
      if (a_dtype == 1) return run(std::type_identity<kn::plans::Fp8E5M2E4M3TwoLevel>{});
      return run(std::type_identity<kn::plans::Fp8E4M3TwoLevel>{});
    }
    if (a_dtype == 1) return run(std::type_identity<kn::plans::Fp8E5M2E4M3>{});
    return run(std::type_identity<kn::plans::Fp8E4M3>{});
  });
}

/// The workspace bytes cute_cpp_gemm_fp8 uses for an m x n x k problem with this scaling (0, 1
/// or 2) and accumulation (0 or 1), into *bytes (as cute_cpp_gemm_bf16_workspace_bytes).
int cute_cpp_gemm_fp8_workspace_bytes(long long m, long long n, long long k, int scaling, int accumulation,
                                      unsigned long long* bytes, char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    if (bytes == nullptr) host::argument_error("gemm.workspace", "bytes is null");
    check_fp8_forms(scaling, accumulation);
    if (m < 0 || n < 0 || k < 0) host::argument_error("gemm.shape", "m, n and k are not negative");
    auto const of = [&]<class Plan>(std::type_identity<Plan>) {
      kn::GemmArguments<Plan> shape;
      shape.m = m, shape.n = n, shape.k = k;
      return kn::gemm_workspace_bytes<Plan>(shape);
    };
    // e5m2's plans have e4m3's tiles.
    *bytes = scaling == 2        ? kn::plans::with_blockwise_plan(n, of)
             : accumulation == 1 ? of(std::type_identity<kn::plans::Fp8E4M3TwoLevel>{})
                                 : of(std::type_identity<kn::plans::Fp8E4M3>{});
  });
}

/// The workspace bytes cute_cpp_gemm_bf16 (fused = 0) or cute_cpp_gemm_bf16_epilogue (fused = 1)
/// uses for an m x n x k problem, into *bytes: the split-K / stream-K partials of the plan its
/// heuristic picks. A caller that keeps one zeroed workspace of at least this size per stream gets
/// the same plan and decomposition on every call. Returns 0, or 1 with the error in `message`.
int cute_cpp_gemm_bf16_workspace_bytes(long long m, long long n, long long k, int fused, unsigned long long* bytes,
                                       char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    if (bytes == nullptr) host::argument_error("gemm.workspace", "bytes is null");
    if (m < 0 || n < 0 || k < 0) host::argument_error("gemm.shape", "m, n and k are not negative");
    if (fused == 0) {
      kn::GemmArguments<kn::plans::Bf16TN> shape;
      shape.m = m, shape.n = n, shape.k = k;
      *bytes = kn::gemm_bf16_tn_workspace_bytes(shape);
    } else {
      kn::GemmArguments<kn::plans::Bf16TNLinear> shape;  // every activation's plan has this tile
      shape.m = m, shape.n = n, shape.k = k;
      *bytes = kn::gemm_workspace_bytes<kn::plans::Bf16TNLinear>(shape);
    }
  });
}

/// Grouped C_g = A_g B_g^T (MoE experts), bf16, fp32 accumulation: A [rows, k] row-major holds every
/// group's rows, C [rows, n] (n / 2 with swiglu) row-major gets them, B holds each group's [n, k]
/// row-major weight, b_group_stride elements apart. The groups, read on the device: contiguous
/// (offsets, `groups` int32: group g's rows end at offsets[g], PyTorch's _grouped_mm offs; counts
/// null) or masked (counts, `groups` int32 of at most `capacity` rows used from row g * capacity;
/// offsets null; rows = groups * capacity). swiglu 1: B interleaves blocks of 8 gate and 8 up rows
/// and C gets silu(gate) * up. Rows no group holds are not written. workspace: at least
/// cute_cpp_grouped_gemm_bf16_workspace_bytes, 128-byte aligned, not shared with a call running at
/// the same time (it need not be zeroed). Offsets or counts that are wrong (decreasing, past A's
/// rows, over the capacity) are found on the device: C is not written, and
/// cute_cpp_grouped_gemm_status then reports the rule. stream and the result as cute_cpp_gemm_bf16.
int cute_cpp_grouped_gemm_bf16(void const* a, long long lda, void const* b, long long ldb, long long b_group_stride,
                               void* c, long long ldc, long long rows, long long n, long long k, int groups,
                               int const* offsets, int const* counts, long long capacity, int swiglu, void* workspace,
                               unsigned long long workspace_bytes, void* stream, char* message,
                               unsigned long message_size) {
  auto const run = [&]<bool SwiGLU>(std::bool_constant<SwiGLU>) {
    kn::GroupedBf16Arguments<SwiGLU> args;
    auto& g = args.gemm;
    g.a = static_cast<kn::plans::bf16 const*>(a), g.lda = lda;
    g.b = static_cast<kn::plans::bf16 const*>(b), g.ldb = ldb;
    g.c = static_cast<kn::plans::bf16*>(c), g.ldc = ldc;
    g.m = rows, g.n = n, g.k = k;
    g.workspace = workspace, g.workspace_bytes = workspace_bytes;
    args.rows = {.groups = groups, .offsets = offsets, .counts = counts, .capacity = capacity, .rows = rows};
    args.b_group_stride = b_group_stride;
    kn::run_grouped_gemm_bf16<SwiGLU>(args, static_cast<cudaStream_t>(stream));
  };
  return kn::capi_try(message, message_size, [&] {
    if (swiglu != 0 && swiglu != 1) host::argument_error("gemm.gated", "swiglu is 0 or 1");
    if (swiglu == 1) return run(std::true_type{});
    run(std::false_type{});
  });
}

/// The workspace bytes cute_cpp_grouped_gemm_bf16 needs for `groups` groups over `rows` rows
/// (capacity: the masked groups' capacity, 0 for contiguous groups), into *bytes.
int cute_cpp_grouped_gemm_bf16_workspace_bytes(long long rows, int groups, long long capacity,
                                               unsigned long long* bytes, char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    if (bytes == nullptr) host::argument_error("grouped.workspace", "bytes is null");
    if (rows < 0 || groups < 0 || capacity < 0)
      host::argument_error("grouped.rows", "rows, groups and capacity are not negative");
    kn::GroupedBf16Arguments<false> args;
    args.rows = {.groups = groups, .counts = capacity > 0 ? &groups : nullptr, .capacity = capacity, .rows = rows};
    *bytes = kn::grouped_gemm_bf16_workspace_bytes<false>(args);
  });
}

/// Waits for `stream` and reports (status 1, the rule in `message`) what the last grouped GEMM on
/// `workspace` found wrong with its offsets or counts; 0 if nothing.
int cute_cpp_grouped_gemm_status(void const* workspace, void* stream, char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size,
                      [&] { kn::grouped_gemm_check_status(workspace, static_cast<cudaStream_t>(stream)); });
}

}  // extern "C"
