// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The benchmark method shared by every example: warm-up, then the median of CUDA-event timings
// of ours and the reference, interleaved;
// work declared in bytes or FLOPs; each figure recorded beside its reference, as a table row
// and as a JSON record for scripts/gpu-check. Also `NAME --kernels`: the dynamic shared memory
// of the example's kernels, for scripts/build-report, without a GPU.
#include <cute_cpp/host/buffer.hpp>
#include <cute_cpp/host/error.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

// The timing method's own kernels: scripts/build-report leaves out every kernel of this namespace.
namespace cute_cpp::kernels::bench {

/// Spins one thread for `cycles` clock cycles: queued ahead of a timed round, it keeps the GPU
/// busy while the host enqueues the round.
template <int = 0>
__global__ void hold(long long cycles) {
  long long const start = clock64();
  while (clock64() - start < cycles) {
  }
}

/// Reads `count` float4s: run before a timed call, it leaves only its own (clean) lines in L2.
template <int = 0>
__global__ void flush_l2(float4 const* data, std::size_t count, float* sink) {
  float sum = 0.0f;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    float4 const v = data[i];
    sum += v.x + v.y + v.z + v.w;
  }
  if (sum == 1.0f) *sink = sum;  // never true for the zeroed buffer; keeps the loads
}

}  // namespace cute_cpp::kernels::bench

namespace cute_cpp::kernels {

/// Evicts whatever the previous call left in L2, then queues bench::hold, on `stream`.
/// NOTE: without the flush, a reference timed right after ours on the same operands finds them
/// in L2 and looks faster than it is (bench/README.md has the measurement).
inline void bench_cold_start(cudaStream_t stream) {
  using host::cuda_check;
  struct Scratch {
    float4* data = nullptr;
    std::size_t count = 0;
    float* sink = nullptr;
  };
  // Twice L2, allocated once and kept for the process (freeing it at exit would race the
  // runtime's own teardown).
  static Scratch const scratch = [] {
    int device = 0, l2 = 0;
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    cuda_check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute");
    Scratch s;
    s.count = std::max<std::size_t>(2 * std::size_t(l2), std::size_t{1} << 20) / sizeof(float4);
    cuda_check(cudaMalloc(&s.data, s.count * sizeof(float4) + sizeof(float)), "cudaMalloc");
    cuda_check(cudaMemset(s.data, 0, s.count * sizeof(float4) + sizeof(float)), "cudaMemset");
    s.sink = reinterpret_cast<float*>(s.data + s.count);
    return s;
  }();
  bench::flush_l2<<<1024, 256, 0, stream>>>(scratch.data, scratch.count, scratch.sink);
  cuda_check(cudaGetLastError(), "bench::flush_l2");
  bench::hold<<<1, 1, 0, stream>>>(200000);  // about 100 us at the H200's clocks: more than enqueueing takes
  cuda_check(cudaGetLastError(), "bench::hold");
}

/// Median microseconds of `reps` calls of one function on the default stream, after one unclocked
/// call: each cold (bench_cold_start before it), or warm (back to back behind bench::hold, so that
/// no host launch time shows); the calls are queued together and read after one synchronisation.
template <class Call>
double median_call_us(Call&& call, int reps, bool warm) {
  using host::cuda_check;
  call();
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<cudaEvent_t> events(std::size_t(2 * reps));
  for (auto& e : events) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
  if (warm) bench::hold<<<1, 1>>>(40000LL * reps);  // about 20 us a call: more than enqueueing takes
  for (int i = 0; i < reps; ++i) {
    if (!warm) bench_cold_start(nullptr);
    cuda_check(cudaEventRecord(events[std::size_t(2 * i)], nullptr), "cudaEventRecord");
    call();
    cuda_check(cudaEventRecord(events[std::size_t(2 * i + 1)], nullptr), "cudaEventRecord");
  }
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<double> us;
  for (int i = 0; i < reps; ++i) {
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, events[std::size_t(2 * i)], events[std::size_t(2 * i + 1)]),
               "cudaEventElapsedTime");
    us.push_back(double(ms) * 1e3);
  }
  for (auto& e : events) cuda_check(cudaEventDestroy(e), "cudaEventDestroy");
  std::nth_element(us.begin(), us.begin() + reps / 2, us.end());
  return us[std::size_t(reps / 2)];
}

/// Median milliseconds a call of `ours()` and of `reference()` takes over `reps` rounds: each round
/// runs `prepare()` and then `calls` calls of ours between two events, then the same for the
/// reference, so both see the same clocks and temperature.
template <class Prepare, class Ours, class Reference>
std::pair<double, double> median_ms_rounds(Prepare&& prepare, Ours&& ours, Reference&& reference, cudaStream_t stream,
                                           int calls, int reps) {
  using host::cuda_check;
  cudaEvent_t events[4]{};
  for (auto& e : events) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
  std::vector<double> ours_ms, reference_ms;
  for (int i = 0; i < reps; ++i) {
    prepare();
    cuda_check(cudaEventRecord(events[0], stream), "cudaEventRecord");
    for (int c = 0; c < calls; ++c) ours();
    cuda_check(cudaEventRecord(events[1], stream), "cudaEventRecord");
    prepare();
    cuda_check(cudaEventRecord(events[2], stream), "cudaEventRecord");
    for (int c = 0; c < calls; ++c) reference();
    cuda_check(cudaEventRecord(events[3], stream), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(events[3]), "cudaEventSynchronize");
    float a = 0, b = 0;
    cuda_check(cudaEventElapsedTime(&a, events[0], events[1]), "cudaEventElapsedTime");
    cuda_check(cudaEventElapsedTime(&b, events[2], events[3]), "cudaEventElapsedTime");
    ours_ms.push_back(a / calls);
    reference_ms.push_back(b / calls);
  }
  for (auto& e : events) cuda_check(cudaEventDestroy(e), "cudaEventDestroy");
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  return {median(ours_ms), median(reference_ms)};
}

/// Median milliseconds of `ours()` and of `reference()`, timed alternately (one of each per
/// round) so both see the same clocks and temperature; warm-up runs of both come first.
/// Each timed call starts cold: L2 flushed, so neither side reads what the other just loaded.
/// The figures are GPU time: each call is enqueued behind bench::hold, so neither side's host
/// launch overhead (argument checks, tensor-map encoding) shows as idle GPU time between events.
/// NOTE: timed back to back in blocks, a reference's figure moved by a sixth with what ran before
/// it (bench/README.md).
template <class Ours, class Reference>
std::pair<double, double> median_ms_interleaved(Ours&& ours, Reference&& reference, cudaStream_t stream,
                                                int warmup = 10, int reps = 50) {
  for (int i = 0; i < warmup; ++i) {
    ours();
    reference();
  }
  host::cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return median_ms_rounds([&] { bench_cold_start(stream); }, ours, reference, stream, 1, reps);
}

/// Median milliseconds a call of `ours()` and of `reference()` takes warm: `calls` calls back to
/// back on the same operands (what of them fits in L2 stays there from the call before, as inside
/// a model), queued behind bench::hold so that no host launch time shows; ours' rounds and the
/// reference's alternate, after a warm-up call of each.
template <class Ours, class Reference>
std::pair<double, double> median_ms_warm(Ours&& ours, Reference&& reference, cudaStream_t stream, int calls = 5,
                                         int reps = 10) {
  ours();
  reference();
  host::cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  // About 20 us of GPU time per call to enqueue: more than a call's host time (cuBLASLt's 6-11 us).
  long long const hold_cycles = 40000LL * calls;
  auto const hold = [&] {
    bench::hold<<<1, 1, 0, stream>>>(hold_cycles);
    host::cuda_check(cudaGetLastError(), "bench::hold");
  };
  return median_ms_rounds(hold, ours, reference, stream, calls, reps);
}

/// One figure beside its reference; ratio = ours / reference (reference / ours for times), higher is better.
struct Record {
  std::string kernel;
  std::string shape;
  std::string dtype;
  double ours = 0;
  std::string reference;
  double reference_value = 0;
  std::string unit;
  double microseconds = 0;
  /// The figures are times (host microseconds a call, say): ratio = reference / ours.
  bool lower_is_better = false;
  /// A sweep's half (issue 43's model-shape sweep: "fit" or "held-out"); written only when set.
  std::string half;
  /// The tile and cut the dispatch took for the point (issue 43's sweeps: gemm_choice_name); written only when set.
  std::string choice;
  [[nodiscard]] double ratio() const {
    if (lower_is_better) return ours > 0 ? reference_value / ours : 0;
    return reference_value > 0 ? ours / reference_value : 0;
  }
};

/// A benchmark's shape in the tables: "rows x cols".
inline std::string shape_name(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

inline void print_table(std::vector<Record> const& records) {
  std::printf("%-22s %-22s %-6s %10s %10s %-18s %10s %7s\n", "kernel", "shape", "dtype", "us", "ours",
              "reference", "ref", "ratio");
  for (auto const& r : records) {
    std::printf("%-22s %-22s %-6s %10.1f %10.1f %-18s %10.1f %7.3f  %s\n", r.kernel.c_str(), r.shape.c_str(),
                r.dtype.c_str(), r.microseconds, r.ours, r.reference.c_str(), r.reference_value, r.ratio(),
                r.unit.c_str());
  }
}

/// The name of an element type in the tables: f32, bf16, f16.
template <class T>
constexpr char const* dtype_name() {
  if constexpr (std::is_same_v<T, float>) return "f32";
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bf16";
  else if constexpr (std::is_same_v<T, __half>) return "f16";
  else static_assert(sizeof(T) == 0, "cute-cpp: add a name for this element type");
}

/// A memory-bound kernel that moves `bytes` (reads plus writes) against a device-to-device copy of
/// the same bytes, timed alternately; both figures in GB/s.
template <class Launch>
Record bench_against_copy(std::string kernel, std::string shape, std::string dtype, std::size_t bytes,
                          Launch&& launch) {
  host::DeviceBuffer<unsigned char> copy_src(bytes / 2), copy_dst(bytes / 2);
  host::cuda_check(cudaMemset(copy_src.data(), 0x5A, copy_src.bytes()), "cudaMemset");
  auto const [ours_ms, copy_ms] = median_ms_interleaved(launch, [&] {
    host::cuda_check(cudaMemcpyAsync(copy_dst.data(), copy_src.data(), copy_src.bytes(), cudaMemcpyDeviceToDevice),
                     "cudaMemcpyAsync");
  }, nullptr);
  auto const gbps = [&](double ms) { return static_cast<double>(bytes) / (ms * 1e6); };
  return {std::move(kernel), std::move(shape), std::move(dtype), gbps(ours_ms), "device copy", gbps(copy_ms), "GB/s",
          ours_ms * 1e3};
}

/// Writes the records as a JSON array (the fields scripts/gpu-check reads).
inline void write_json(std::string const& path, std::vector<Record> const& records) {
  std::ofstream out(path);
  out << "[\n";
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto const& r = records[i];
    char line[2048];
    std::string const half = (r.half.empty() ? "" : ", \"half\": \"" + r.half + "\"") +
                             (r.choice.empty() ? "" : ", \"choice\": \"" + r.choice + "\"");
    std::snprintf(line, sizeof line,
                  "  {\"kernel\": \"%s\", \"shape\": \"%s\", \"dtype\": \"%s\", \"ours\": %.4f, "
                  "\"reference\": \"%s\", \"reference_value\": %.4f, \"unit\": \"%s\", \"ratio\": %.4f, "
                  "\"microseconds\": %.3f%s}%s\n",
                  r.kernel.c_str(), r.shape.c_str(), r.dtype.c_str(), r.ours, r.reference.c_str(),
                  r.reference_value, r.unit.c_str(), r.ratio(), r.microseconds, half.c_str(),
                  i + 1 < records.size() ? "," : "");
    out << line;
  }
  out << "]\n";
  if (!out) throw std::runtime_error("cute-cpp: cannot write " + path);
}

namespace detail {
/// Names a kernel by its address: typeid(KernelTag<&kernel<...>>).name() carries the kernel's
/// signature, which scripts/build-report demangles and finds among the binary's kernels.
template <auto Kernel>
struct KernelTag {};
}  // namespace detail

/// A kernel (or every kernel instantiated for a plan) and the dynamic shared memory each of its
/// launches asks for.
struct KernelSmem {
  char const* tag;  ///< typeid name: detail::KernelTag<&kernel> for one kernel, or a plan type
  std::size_t dynamic_smem;
  char const* per_call = nullptr;  ///< instead of a size: how each launch sizes it (from its arguments)
};

/// `kernel` takes `bytes` of dynamic shared memory.
template <auto Kernel>
KernelSmem kernel_smem(std::size_t bytes) {
  return {typeid(detail::KernelTag<Kernel>).name(), bytes};
}

/// `kernel` takes dynamic shared memory sized per launch, as `how` says (e.g. "m x k x 2 bytes").
template <auto Kernel>
KernelSmem kernel_smem_per_call(char const* how) {
  return {typeid(detail::KernelTag<Kernel>).name(), 0, how};
}

/// Every kernel whose template arguments name `Plan` takes `bytes` (default Plan::smem_bytes) of
/// dynamic shared memory.
template <class Plan>
KernelSmem plan_smem(std::size_t bytes = std::size_t(Plan::smem_bytes)) {
  return {typeid(Plan).name(), bytes};
}

/// `NAME --kernels`: prints `{"dynamic_smem": [{"tag": ..., "bytes": N or "how"}, ...]}` for scripts/build-report
/// and returns true, touching no GPU; false (printing nothing) without the flag. `kernels` lists
/// the kernels that take dynamic shared memory; the build report shows 0 for the others.
/// Call it first in main: `if (print_kernels(argc, argv, {...})) return 0;`.
inline bool print_kernels(int argc, char** argv, std::span<KernelSmem const> kernels) {
  if (argc != 2 || std::string_view(argv[1]) != "--kernels") return false;
  std::printf("{\"dynamic_smem\": [");
  char const* separator = "";
  for (auto const& k : kernels) {
    if (k.per_call != nullptr) std::printf("%s\n  {\"tag\": \"%s\", \"bytes\": \"%s\"}", separator, k.tag, k.per_call);
    else std::printf("%s\n  {\"tag\": \"%s\", \"bytes\": %zu}", separator, k.tag, k.dynamic_smem);
    separator = ",";
  }
  std::printf("\n]}\n");
  return true;
}

inline bool print_kernels(int argc, char** argv, std::initializer_list<KernelSmem> kernels) {
  return print_kernels(argc, argv, std::span<KernelSmem const>(kernels.begin(), kernels.size()));
}

/// print_kernels for every kernel of the plans in a type list (List<Plans...>), each taking its
/// Plan::smem_bytes.
template <template <class...> class List, class... Plans>
bool print_plan_kernels(int argc, char** argv, List<Plans...>) {
  return print_kernels(argc, argv, {plan_smem<Plans>()...});
}

}  // namespace cute_cpp::kernels
