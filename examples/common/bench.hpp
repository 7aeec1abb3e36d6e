// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The benchmark method shared by every example: warm-up, then the median of CUDA-event timings
// of ours and the reference, interleaved;
// work declared in bytes or FLOPs; each figure recorded beside its reference, as a table row
// and as a JSON record for scripts/gpu-check.
#include <cute_cpp/host/error.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace cute_cpp::examples {

/// Median milliseconds of `ours()` and of `reference()`, timed alternately (one of each per
/// round) so both see the same clocks and temperature; warm-up runs of both come first.
/// NOTE: timed back to back in blocks, cuBLAS's 8192^3 bf16 GEMM read 653 to 779 TFLOP/s
/// on one H200 (2026-11-30) depending on what ran before it.
template <class Ours, class Reference>
std::pair<double, double> median_ms_interleaved(Ours&& ours, Reference&& reference, cudaStream_t stream,
                                                int warmup = 10, int reps = 50) {
  using host::cuda_check;
  for (int i = 0; i < warmup; ++i) {
    ours();
    reference();
  }
  cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  cudaEvent_t events[3]{};
  for (auto& e : events) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
  std::vector<double> ours_ms, reference_ms;
  for (int i = 0; i < reps; ++i) {
    cuda_check(cudaEventRecord(events[0], stream), "cudaEventRecord");
    ours();
    cuda_check(cudaEventRecord(events[1], stream), "cudaEventRecord");
    reference();
    cuda_check(cudaEventRecord(events[2], stream), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(events[2]), "cudaEventSynchronize");
    float a = 0, b = 0;
    cuda_check(cudaEventElapsedTime(&a, events[0], events[1]), "cudaEventElapsedTime");
    cuda_check(cudaEventElapsedTime(&b, events[1], events[2]), "cudaEventElapsedTime");
    ours_ms.push_back(a);
    reference_ms.push_back(b);
  }
  for (auto& e : events) cuda_check(cudaEventDestroy(e), "cudaEventDestroy");
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  return {median(ours_ms), median(reference_ms)};
}

/// One figure beside its reference; ratio = ours / reference, higher is better.
struct Record {
  std::string kernel;
  std::string shape;
  std::string dtype;
  double ours = 0;
  std::string reference;
  double reference_value = 0;
  std::string unit;
  double microseconds = 0;
  [[nodiscard]] double ratio() const { return reference_value > 0 ? ours / reference_value : 0; }
};

inline void print_table(std::vector<Record> const& records) {
  std::printf("%-22s %-22s %-6s %10s %10s %-18s %10s %7s\n", "kernel", "shape", "dtype", "us", "ours",
              "reference", "ref", "ratio");
  for (auto const& r : records) {
    std::printf("%-22s %-22s %-6s %10.1f %10.1f %-18s %10.1f %7.3f  %s\n", r.kernel.c_str(), r.shape.c_str(),
                r.dtype.c_str(), r.microseconds, r.ours, r.reference.c_str(), r.reference_value, r.ratio(),
                r.unit.c_str());
  }
}

/// Writes the records as a JSON array (the fields scripts/gpu-check reads).
inline void write_json(std::string const& path, std::vector<Record> const& records) {
  std::ofstream out(path);
  out << "[\n";
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto const& r = records[i];
    char line[1024];
    std::snprintf(line, sizeof line,
                  "  {\"kernel\": \"%s\", \"shape\": \"%s\", \"dtype\": \"%s\", \"ours\": %.4f, "
                  "\"reference\": \"%s\", \"reference_value\": %.4f, \"unit\": \"%s\", \"ratio\": %.4f, "
                  "\"microseconds\": %.3f}%s\n",
                  r.kernel.c_str(), r.shape.c_str(), r.dtype.c_str(), r.ours, r.reference.c_str(),
                  r.reference_value, r.unit.c_str(), r.ratio(), r.microseconds, i + 1 < records.size() ? "," : "");
    out << line;
  }
  out << "]\n";
  if (!out) throw std::runtime_error("cute-cpp: cannot write " + path);
}

}  // namespace cute_cpp::examples
