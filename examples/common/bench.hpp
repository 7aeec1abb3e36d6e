// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The benchmark method shared by every example: warm-up, then the median of CUDA-event timings;
// work declared in bytes or FLOPs; each figure recorded beside its reference, as a table row
// and as a JSON record for scripts/gpu-check.
#include <cute_cpp/host/error.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace cute_cpp::examples {

/// Median milliseconds of `launch()` over `reps` timed runs after `warmup` untimed ones.
template <class Launch>
double median_ms(Launch&& launch, cudaStream_t stream, int warmup = 10, int reps = 50) {
  using host::cuda_check;
  for (int i = 0; i < warmup; ++i) launch();
  cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  cudaEvent_t start{}, stop{};
  cuda_check(cudaEventCreate(&start), "cudaEventCreate");
  cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    cuda_check(cudaEventRecord(start, stream), "cudaEventRecord");
    launch();
    cuda_check(cudaEventRecord(stop, stream), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  cuda_check(cudaEventDestroy(start), "cudaEventDestroy");
  cuda_check(cudaEventDestroy(stop), "cudaEventDestroy");
  std::nth_element(times.begin(), times.begin() + reps / 2, times.end());
  return times[reps / 2];
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
