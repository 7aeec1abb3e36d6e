// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry point to the Hopper GEMM (libcute_cpp_gemm.so and its generated header
// cute_cpp_gemm.h, made by cute_cpp_export): the bf16 linear layer through the tile heuristic.
#include "examples/common/capi.hpp"
#include "gemm.hpp"
#include "plans.hpp"

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
  namespace ex = cute_cpp::examples;
  return ex::capi_try(message, message_size, [&] {
    ex::GemmArguments<ex::plans::Bf16TN> args;
    args.a = static_cast<ex::plans::bf16 const*>(a), args.lda = lda;
    args.b = static_cast<ex::plans::bf16 const*>(b), args.ldb = ldb;
    args.c = static_cast<ex::plans::bf16*>(c), args.ldc = ldc;
    args.m = m, args.n = n, args.k = k;
    args.workspace = workspace, args.workspace_bytes = workspace_bytes;
    ex::check_gemm_arguments(args, ex::plans::Bf16TN::major_a, ex::plans::Bf16TN::major_b,
                             ex::plans::Bf16TN::layout_c, false);
    if (workspace_needed != nullptr) *workspace_needed = ex::gemm_bf16_tn_workspace_bytes(args);
    ex::run_gemm_bf16_tn(args, static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
