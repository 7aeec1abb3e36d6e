// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cuBLAS and cublasLt failures as exceptions, for the examples' reference products.
#include <cublas_api.h>

#include <stdexcept>
#include <string>

namespace cute_cpp::examples {

/// Throws std::runtime_error naming `call` unless `status` is CUBLAS_STATUS_SUCCESS.
inline void cublas_check(cublasStatus_t status, char const* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed: cublasStatus " + std::to_string(int(status)));
}

}  // namespace cute_cpp::examples
