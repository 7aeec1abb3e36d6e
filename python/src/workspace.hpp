// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The GEMM's split-K / stream-K workspace for calls from Python: one zeroed buffer per (device,
// stream), grown in stream order when a shape needs more, so that a Python call gets the plan and
// decomposition the C++ caller who passes a workspace gets (without one, skinny shapes run as
// whole tiles on a fraction of the SMs). One per stream, because two GEMMs running at once must
// not share partial sums.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace cute_cpp::python {

class StreamWorkspaces {
 public:
  /// A zeroed workspace of at least `bytes` for work on `stream` (the current device's), or, while
  /// the stream records a graph and the buffer would have to grow, the smaller one it has (the
  /// GEMM then takes a decomposition that fits). Null for 0 bytes. Callers hold the GIL.
  /// `use` keeps workspaces apart that must not be shared: 0 split-K / stream-K partials (left
  /// zeroed by the kernels), 1 the grouped GEMM's tables (left written), 2 the MoE block's scratch,
  /// 3 the SSD scan's intermediates, 4 decode attention's split partials. The GEMM (0) takes a
  /// decomposition that fits a smaller workspace; the others need `bytes`: while capturing, a
  /// workspace too small for them is refused with ValueError (run the op once on the stream first).
  std::pair<void*, std::size_t> get(int device, std::uintptr_t stream, std::size_t bytes, int use = 0) {
    Buffer& b = buffers_[{device, stream, use}];
    if (bytes == 0 || b.bytes >= bytes) return {b.data, b.bytes};
    auto const s = reinterpret_cast<cudaStream_t>(stream);
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    check(cudaStreamIsCapturing(s, &capture), "cudaStreamIsCapturing");
    if (capture != cudaStreamCaptureStatusNone && use >= 2)
      throw std::invalid_argument("cute-cpp [ops.workspace]: the op needs " + std::to_string(bytes) +
                                  " bytes of workspace and this stream, being captured into a graph, has " +
                                  std::to_string(b.bytes) + ": run the op once on this stream before capturing");
    if (capture != cudaStreamCaptureStatusNone) return {b.data, b.bytes};
    // Freed and allocated in stream order: work already queued on the stream keeps the old one.
    if (b.data != nullptr) check(cudaFreeAsync(b.data, s), "cudaFreeAsync");
    b = {};
    std::size_t const grown = std::max(bytes, std::size_t{1} << 20);
    check(cudaMallocAsync(&b.data, grown, s), "cudaMallocAsync");
    b.bytes = grown;
    check(cudaMemsetAsync(b.data, 0, grown, s), "cudaMemsetAsync");
    return {b.data, b.bytes};
  }

  /// The process's (never freed: freeing at exit would race the CUDA runtime's own teardown).
  static StreamWorkspaces& process() {
    static auto* workspaces = new StreamWorkspaces;
    return *workspaces;
  }

 private:
  struct Buffer {
    void* data = nullptr;
    std::size_t bytes = 0;
  };
  static void check(cudaError_t e, char const* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("cute-cpp: ") + what + ": " + cudaGetErrorString(e));
  }
  std::map<std::tuple<int, std::uintptr_t, int>, Buffer> buffers_;
};

}  // namespace cute_cpp::python
