// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// CUDA failures as exceptions: CudaError names the error, the call and where it was made.
#include <cuda_runtime_api.h>

#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cute_cpp::host {

/// A failed CUDA runtime call: "cudaMalloc failed: cudaErrorMemoryAllocation (out of memory) at f.cu:12".
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, std::string_view call, std::source_location where)
      : std::runtime_error(describe(code, call, where)), code_(code) {}

  [[nodiscard]] cudaError_t code() const noexcept { return code_; }

 private:
  static std::string describe(cudaError_t code, std::string_view call, std::source_location where) {
    std::string text(call);
    text += " failed: ";
    text += cudaGetErrorName(code);
    text += " (";
    text += cudaGetErrorString(code);
    text += ") at ";
    text += where.file_name();
    text += ':';
    text += std::to_string(where.line());
    return text;
  }
  cudaError_t code_;
};

/// Throws std::invalid_argument("cute-cpp [<rule>]: <what>"): a run-time argument broke the rule.
[[noreturn]] inline void argument_error(char const* rule, std::string const& what) {
  throw std::invalid_argument(std::string("cute-cpp [") + rule + "]: " + what);
}

/// Throws CudaError unless `code` is cudaSuccess; `call` names what returned it.
inline void cuda_check(cudaError_t code, std::string_view call,
                       std::source_location where = std::source_location::current()) {
  if (code != cudaSuccess) throw CudaError(code, call, where);
}

/// Checks the launch just made (cudaGetLastError) and names the kernel in the error.
inline void check_launch(std::string_view kernel,
                         std::source_location where = std::source_location::current()) {
  cudaError_t const code = cudaGetLastError();
  if (code != cudaSuccess) throw CudaError(code, std::string("launch of ") + std::string(kernel), where);
}

}  // namespace cute_cpp::host
