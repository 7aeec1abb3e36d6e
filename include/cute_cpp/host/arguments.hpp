// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The run-time checks every host entry point makes on its pointers and stream before it launches,
// so that a bad call is an error naming the rule instead of an illegal-address fault, a kernel
// reading host memory, or an output that overwrote its input:
//   PointerArgument const pointers[] = {{"x", x}, {"y", y}};
//   check_device_pointers(area, pointers, stream)  null, host memory, another device's memory
//   check_stream(area, stream)                     a stream of another device
//   ByteRange const inputs[] = {{"x", x, bytes}};
//   check_disjoint(area, {"y", y, bytes}, inputs)  an output overlapping an input
// (Named arrays rather than braced lists in the call: nvcc 13's front end mistranslates a braced
// list of aggregates with string literals passed to a function inside a template.)
// Rules: <area>.pointers, <area>.stream, <area>.aliasing (e.g. rmsnorm.pointers).
#include <cute_cpp/host/error.hpp>  // argument_error

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace cute_cpp::host {

/// A named pointer argument.
struct PointerArgument {
  char const* name;
  void const* pointer;
};

/// A named byte range [pointer, pointer + bytes).
struct ByteRange {
  char const* name;
  void const* pointer;
  std::size_t bytes;
};

/// The bytes `rows` rows of `width` elements touch when row r starts at r * `stride` elements:
/// the last row ends at its width, not at the stride (an operand packed beside others in wider rows
/// would otherwise seem to reach into the next buffer).
inline std::size_t strided_bytes(std::size_t rows, std::size_t stride, std::size_t width, std::size_t element_bytes) {
  return rows == 0 ? 0 : ((rows - 1) * stride + width) * element_bytes;
}

namespace detail {
inline std::string rule_of(char const* area, char const* what) { return std::string(area) + "." + what; }

/// The last pointers this thread saw to be memory of a device, and which: a repeated call (a
/// model's weights, its activations' buffers) asks the driver nothing. An entry goes wrong only
/// when the caller frees that memory and the same address comes back as another kind of memory
/// (the driver reuses its own address ranges for its own allocations, not for malloc's), so what
/// the cache can miss is another device's allocation at a freed address: the check is a net for
/// mistakes, not a guarantee, as it was for freed memory before.
/// NOTE: the driver query cost a few hundred nanoseconds a pointer, a call.
class DevicePointerCache {
 public:
  static constexpr int slots = 32;
  [[nodiscard]] bool holds(void const* pointer, int device) const {
    for (Entry const& e : entries_)
      if (e.pointer == pointer && e.device == device) return true;
    return false;
  }
  void add(void const* pointer, int device) {
    entries_[next_] = {pointer, device};
    next_ = (next_ + 1) % slots;
  }
  static DevicePointerCache& thread() {
    thread_local DevicePointerCache cache;
    return cache;
  }

 private:
  struct Entry {
    void const* pointer = nullptr;
    int device = -1;
  };
  Entry entries_[slots];
  int next_ = 0;
};
}  // namespace detail

/// Whether `stream` is recording a CUDA graph. The driver refuses pointer and stream queries while
/// a stream records, and the refusal invalidates the recording; so the checks below make only
/// their null checks then (the launches recorded are usually the ones an eager run checked).
inline bool capturing(cudaStream_t stream) {
  if (stream == nullptr) return false;  // the legacy default stream cannot record
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return status != cudaStreamCaptureStatusNone;
}

/// Each pointer is set and, where the driver can say, memory of the current device: device or
/// managed memory, or pinned host memory mapped into the device's address space. Pageable host
/// memory (malloc, std::vector) and another device's memory are refused. Without a device (no
/// driver to ask), or while `stream` records a graph, only the null check is made.
inline void check_device_pointers(char const* area, std::span<PointerArgument const> args, cudaStream_t stream) {
  for (PointerArgument const& a : args) {
    if (a.pointer == nullptr)
      argument_error(detail::rule_of(area, "pointers").c_str(), std::string(a.name) + " is null");
  }
  if (capturing(stream)) return;
  int current = 0;
  if (cudaGetDevice(&current) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  detail::DevicePointerCache& known = detail::DevicePointerCache::thread();
  for (PointerArgument const& a : args) {
    if (known.holds(a.pointer, current)) continue;
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, a.pointer) != cudaSuccess) {
      (void)cudaGetLastError();
      continue;
    }
    if (attributes.type == cudaMemoryTypeUnregistered)
      argument_error(detail::rule_of(area, "pointers").c_str(),
                     std::string(a.name) + " is pageable host memory; pass device memory (cudaMalloc) or pinned, "
                                           "mapped host memory");
    if (attributes.type == cudaMemoryTypeDevice && attributes.device != current)
      argument_error(detail::rule_of(area, "pointers").c_str(),
                     std::string(a.name) + " is memory of device " + std::to_string(attributes.device) +
                         " but the current device is " + std::to_string(current));
    if (attributes.type == cudaMemoryTypeDevice) known.add(a.pointer, current);
  }
}

/// The stream belongs to the current device (the default stream always does).
inline void check_stream(char const* area, cudaStream_t stream) {
#if CUDART_VERSION >= 12080
  if (stream == nullptr || capturing(stream)) return;
  int current = 0, device = 0;
  if (cudaGetDevice(&current) != cudaSuccess || cudaStreamGetDevice(stream, &device) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  if (device != current)
    argument_error(detail::rule_of(area, "stream").c_str(), "the stream belongs to device " + std::to_string(device) +
                                                                " but the current device is " + std::to_string(current));
#else
  (void)area;
  (void)stream;
#endif
}

/// The output's bytes share none with any input's: the kernels read their inputs while they
/// write, so an overlap (in place included) gives a wrong result rather than an error.
inline void check_disjoint(char const* area, ByteRange out, std::span<ByteRange const> ins) {
  auto const begin = [](ByteRange const& r) { return reinterpret_cast<std::uintptr_t>(r.pointer); };
  for (ByteRange const& in : ins) {
    if (in.pointer == nullptr || in.bytes == 0 || out.bytes == 0) continue;
    if (begin(in) < begin(out) + out.bytes && begin(out) < begin(in) + in.bytes)
      argument_error(detail::rule_of(area, "aliasing").c_str(),
                     std::string(out.name) + " overlaps " + in.name + "; pass separate buffers");
  }
}

}  // namespace cute_cpp::host
