// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// DeviceBuffer<T>: an owning device allocation with host transfers.
#include <cute_cpp/host/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdio>
#include <source_location>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cute_cpp::host {

/// "cudaMalloc of 1.50 GB (0.20 GB of 79.19 GB free)": what a failed allocation asked for.
inline std::string allocation_call(std::size_t bytes) {
  std::size_t free_bytes = 0, total_bytes = 0;
  bool const known = cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess;
  if (!known) (void)cudaGetLastError();
  auto const gb = [](std::size_t b) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GB", double(b) / 1e9);
    return std::string(text);
  };
  std::string call = "cudaMalloc of " + gb(bytes);
  if (known) call += " (" + gb(free_bytes) + " of " + gb(total_bytes) + " free)";
  return call;
}

/// An owning, movable device array of `size()` elements of T (cudaMalloc / cudaFree).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// An out-of-memory failure names the bytes asked, the device's free memory and the caller's line.
  explicit DeviceBuffer(std::size_t count, std::source_location where = std::source_location::current())
      : size_(count) {
    if (count == 0) return;
    cudaError_t const code = cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T));
    if (code == cudaSuccess) return;
    (void)cudaGetLastError();  // an allocation failure is not sticky: leave the context usable
    data_ = nullptr;
    size_ = 0;
    throw CudaError(code, allocation_call(count * sizeof(T)), where);
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  DeviceBuffer(DeviceBuffer const&) = delete;
  DeviceBuffer& operator=(DeviceBuffer const&) = delete;
  ~DeviceBuffer() {
    if (data_ != nullptr) (void)cudaFree(data_);
  }

  [[nodiscard]] T* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return size_ * sizeof(T); }

  void upload(std::span<T const> host) {
    if (host.size() > size_) throw std::invalid_argument("cute-cpp [host.buffer.size]: upload larger than the buffer");
    cuda_check(cudaMemcpy(data_, host.data(), host.size_bytes(), cudaMemcpyHostToDevice), "cudaMemcpy(HostToDevice)");
  }
  [[nodiscard]] std::vector<T> download() const {
    std::vector<T> host(size_);
    cuda_check(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy(DeviceToHost)");
    return host;
  }
  /// Fills every byte with `byte` (0xFF makes float NaNs): poison before a run.
  void fill_bytes(unsigned char byte) {
    cuda_check(cudaMemset(data_, byte, bytes()), "cudaMemset");
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace cute_cpp::host
