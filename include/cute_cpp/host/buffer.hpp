// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// DeviceBuffer<T>: an owning device allocation with host transfers.
#include <cute_cpp/host/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace cute_cpp::host {

/// An owning, movable device array of `size()` elements of T (cudaMalloc / cudaFree).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : size_(count) {
    if (count > 0) cuda_check(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)), "cudaMalloc");
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
