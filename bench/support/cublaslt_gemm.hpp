// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The reference GEMM: cublasLt with the same element types and layouts as ours, fp32
// accumulation, planned once per shape (operation, layouts, and the algorithm cublasLt's
// heuristic ranks first for a 32 MB workspace), then run on any operands of that shape.
// Row-major C = A B is column-major C^T = B^T A^T, so cublasLt's A is our B and its B our A.
#include "bench/support/cublas.hpp"

#include <cute_cpp/host/buffer.hpp>

#include <cublasLt.h>

#include <cstdint>
#include <stdexcept>
#include <algorithm>
#include <array>
#include <string>

namespace cute_cpp::kernels {

/// One operand as cublasLt sees it: element type, rows x cols column-major with `ld`, transposed or not.
struct LtOperand {
  cudaDataType_t type;
  std::uint64_t rows, cols;
  std::int64_t ld;
  bool transposed = false;
};

/// FP8 operands' per-tensor scales (device floats, cublasLt's A and B) and whether cublasLt may
/// accumulate in wgmma's FP8 accumulator throughout (fast accumulation) rather than promote it.
struct LtScaling {
  float const* a_scale = nullptr;
  float const* b_scale = nullptr;
  bool fast_accumulation = false;
};

/// A planned cublasLt matmul D = A' B' (alpha 1, beta 0); `run` takes the operands' pointers.
/// `algorithms`: how many of the heuristic's ranked algorithms to keep (use(i) picks one; the
/// first by default; at most max_algorithms), for a best-of-N reference; `workspace_bytes`: the
/// most any may use. NOTE: the ranked algorithms sit in a std::array: a std::vector member here
/// made nvcc 13.0's front end fail (internal error in find_allocated_name_reference) on
/// bench_gemm_dense.cu.
class LtGemm {
 public:
  LtGemm(cublasLtHandle_t handle, LtOperand a, LtOperand b, LtOperand c, LtScaling scaling = {}, int algorithms = 1,
         std::size_t workspace_bytes = 32u << 20)
      : handle_(handle), workspace_(workspace_bytes) {
    cublas_check(cublasLtMatmulDescCreate(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
    cublasOperation_t const ta = a.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t const tb = b.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublas_check(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "TRANSA");
    cublas_check(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "TRANSB");
    if (scaling.a_scale != nullptr)
      cublas_check(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scaling.a_scale,
                                                  sizeof scaling.a_scale),
                   "A_SCALE_POINTER");
    if (scaling.b_scale != nullptr)
      cublas_check(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scaling.b_scale,
                                                  sizeof scaling.b_scale),
                   "B_SCALE_POINTER");
    if (scaling.fast_accumulation) {
      std::int8_t const fast = 1;
      cublas_check(cublasLtMatmulDescSetAttribute(desc_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast),
                   "FAST_ACCUM");
    }
    cublas_check(cublasLtMatrixLayoutCreate(&a_, a.type, a.rows, a.cols, a.ld), "cublasLtMatrixLayoutCreate");
    cublas_check(cublasLtMatrixLayoutCreate(&b_, b.type, b.rows, b.cols, b.ld), "cublasLtMatrixLayoutCreate");
    cublas_check(cublasLtMatrixLayoutCreate(&c_, c.type, c.rows, c.cols, c.ld), "cublasLtMatrixLayoutCreate");
    cublasLtMatmulPreference_t preference{};
    cublas_check(cublasLtMatmulPreferenceCreate(&preference), "cublasLtMatmulPreferenceCreate");
    std::uint64_t const bytes = workspace_.bytes();
    cublas_check(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes,
                                                      sizeof bytes),
                 "MAX_WORKSPACE_BYTES");
    int found = 0;
    std::array<cublasLtMatmulHeuristicResult_t, max_algorithms> results{};
    cublas_check(cublasLtMatmulAlgoGetHeuristic(handle_, desc_, a_, b_, c_, c_, preference,
                                                std::clamp(algorithms, 1, max_algorithms), results.data(), &found),
                 "cublasLtMatmulAlgoGetHeuristic");
    cublasLtMatmulPreferenceDestroy(preference);
    if (found == 0) throw std::runtime_error("cublasLt: no algorithm for this GEMM");
    for (int i = 0; i < found; ++i) algos_[std::size_t(i)] = results[std::size_t(i)].algo;
    count_ = found;
    algo_ = algos_[0];
  }
  static constexpr int max_algorithms = 8;
  /// How many ranked algorithms the heuristic returned (at most `algorithms`).
  [[nodiscard]] int algorithm_count() const { return count_; }
  /// Runs the heuristic's i-th ranked algorithm from now on (0 <= i < algorithm_count()).
  void use(int i) {
    if (i < 0 || i >= count_) throw std::out_of_range("cute-cpp [bench.lt-algorithm]: no such ranked algorithm");
    algo_ = algos_[std::size_t(i)];
  }
  LtGemm(LtGemm const&) = delete;
  LtGemm& operator=(LtGemm const&) = delete;
  ~LtGemm() {
    cublasLtMatrixLayoutDestroy(c_);
    cublasLtMatrixLayoutDestroy(b_);
    cublasLtMatrixLayoutDestroy(a_);
    cublasLtMatmulDescDestroy(desc_);
  }

  void run(void const* a, void const* b, void* c, cudaStream_t stream = nullptr) {
    float const one = 1.0f, zero = 0.0f;
    cublas_check(cublasLtMatmul(handle_, desc_, &one, a, a_, b, b_, &zero, c, c_, c, c_, &algo_, workspace_.data(),
                                workspace_.bytes(), stream),
                 "cublasLtMatmul");
  }

 private:
  cublasLtHandle_t handle_;
  host::DeviceBuffer<unsigned char> workspace_;
  cublasLtMatmulDesc_t desc_{};
  cublasLtMatrixLayout_t a_{}, b_{}, c_{};
  std::array<cublasLtMatmulAlgo_t, max_algorithms> algos_{};
  int count_ = 0;
  cublasLtMatmulAlgo_t algo_{};
};

}  // namespace cute_cpp::kernels
