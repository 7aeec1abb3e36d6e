// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// GemmTuner: run_gemm_auto's GEMM with the tile and cut measured fastest for each shape on this
// GPU. The first call of a shape times the heuristic's choice and every compiled tile (GemmTile)
// under the heuristic's cut on the call's own buffers and keeps the winner, in memory and in a TuneCache file keyed by GPU name, clock class, element type,
// layout and shape; later calls and later processes read it. While the stream records a graph
// nothing is timed (the heuristic's tile, or a cached one, runs). CuTeDSL: autotune_jit, which
// compiles its candidates at run time; ours are the plans built ahead of time.
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/host/arguments.hpp>  // capturing
#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/tune_cache.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace cute_cpp::kernels {

/// "TN", "NN", "TT" or "NT": A and B K-major, A M-major, B N-major, both M/N-major.
constexpr std::string_view gemm_layout_name(OperandMajorMode a, OperandMajorMode b) {
  bool const ak = a == OperandMajorMode::K, bk = b == OperandMajorMode::K;
  return ak ? (bk ? "TN" : "TT") : (bk ? "NN" : "NT");
}

namespace detail {
/// Events around launches on one stream, destroyed with it.
struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  EventPair() {
    host::cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    host::cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~EventPair() {
    (void)cudaEventDestroy(start);
    (void)cudaEventDestroy(stop);
  }
  EventPair(EventPair const&) = delete;
  EventPair& operator=(EventPair const&) = delete;
};

/// The median microseconds of `runs` calls of `run` after two unclocked ones; infinity when the
/// call refuses the arguments.
template <class Run>
double median_call_us(Run&& run, cudaStream_t stream, int runs) {
  try {
    for (int i = 0; i < 2; ++i) run();
  } catch (std::exception const&) {
    return std::numeric_limits<double>::infinity();
  }
  EventPair events;
  std::vector<double> us;
  for (int i = 0; i < runs; ++i) {
    host::cuda_check(cudaEventRecord(events.start, stream), "cudaEventRecord");
    run();
    host::cuda_check(cudaEventRecord(events.stop, stream), "cudaEventRecord");
    host::cuda_check(cudaEventSynchronize(events.stop), "cudaEventSynchronize");
    float ms = 0.0f;
    host::cuda_check(cudaEventElapsedTime(&ms, events.start, events.stop), "cudaEventElapsedTime");
    us.push_back(double(ms) * 1e3);
  }
  std::nth_element(us.begin(), us.begin() + std::ptrdiff_t(us.size() / 2), us.end());
  return us[us.size() / 2];
}
}  // namespace detail

/// Times the tiles per shape and runs the winner (see the file comment). Thread-safe.
class GemmTuner {
 public:
  /// The cache file is read once here; a corrupt one is ignored with a warning on stderr.
  explicit GemmTuner(std::filesystem::path cache_path = host::default_tune_cache_path());

  /// The choice for a problem of `kind` ("gemm bf16 TN") and shape m x n x k: cached, or
  /// measured now by `time` (microseconds of a choice's run, infinity where it refuses) among
  /// `first` (the heuristic's) and every tile under the heuristic's cut, or, while `capturing`,
  /// `first`.
  GemmChoice choice(std::string const& kind, std::int64_t m, std::int64_t n, std::int64_t k, GemmChoice first,
                    bool capturing, std::function<double(GemmChoice)> const& time);

  /// The choice for args' shape, measured on args' buffers (C is overwritten; the workspace is args').
  template <OperandMajorMode MA = plans::K, OperandMajorMode MB = plans::K, class T>
  GemmChoice choice(AutoGemmArguments<T> const& args, cudaStream_t stream) {
    return measured<MA, MB>(args, stream, [&](GemmChoice c) { run_gemm_choice<T, MA, MB>(c, args, stream); });
  }

  /// run_gemm_auto's work with choice(args, stream): the arguments checked, then the choice run.
  template <OperandMajorMode MA = plans::K, OperandMajorMode MB = plans::K, class T>
  void run(AutoGemmArguments<T> const& args, cudaStream_t stream) {
    check_gemm_arguments(args, MA, MB, LayoutEnum::RowMajor, false);
    run_unchecked<MA, MB>(args, stream);
  }

  /// run for arguments already checked (check_gemm_arguments; run_gemm_auto's): they are not
  /// checked again, neither for the runs timed nor for the last.
  template <OperandMajorMode MA = plans::K, OperandMajorMode MB = plans::K, class T>
  void run_unchecked(AutoGemmArguments<T> const& args, cudaStream_t stream) {
    auto const run_choice = [&](GemmChoice c) { run_gemm_choice_unchecked<T, MA, MB>(c, args, stream); };
    run_choice(measured<MA, MB>(args, stream, run_choice));
  }

  /// The tuner run_gemm_auto uses under CUTE_CPP_TUNE=1 (one per process).
  static GemmTuner& process();

 private:
  template <class T>
  static constexpr char const* dtype_of() {
    return std::is_same_v<T, plans::f16> ? "f16" : "bf16";
  }

  /// choice(kind, ...) for args' shape, timing `run` (a choice's run on args).
  template <OperandMajorMode MA, OperandMajorMode MB, class T, class Run>
  GemmChoice measured(AutoGemmArguments<T> const& args, cudaStream_t stream, Run const& run) {
    std::string const kind = std::string("gemm ") + dtype_of<T>() + " " + std::string(gemm_layout_name(MA, MB));
    return choice(kind, args.m, args.n, args.k, chosen_gemm_plan<MA, MB>(args), host::capturing(stream),
                  [&](GemmChoice c) { return detail::median_call_us([&] { run(c); }, stream, 5); });
  }

  std::filesystem::path path_;
  std::mutex mutex_;
  host::TuneCache cache_;
  std::string gpu_;
  int clock_class_ = 0;
};

/// Whether CUTE_CPP_TUNE=1 is set (read once).
bool gemm_tuning_enabled();

}  // namespace cute_cpp::kernels
