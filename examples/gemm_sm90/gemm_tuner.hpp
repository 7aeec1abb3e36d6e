// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// GemmTuner: the bf16 TN GEMM with the tile measured fastest for each shape on this GPU. The first
// call of a shape times every compiled tile (GemmTile) on the call's own buffers and keeps the
// winner, in memory and in a TuneCache file keyed by GPU name, clock class and shape; later calls
// and later processes read it. While the stream records a graph nothing is timed (the heuristic's
// tile, or a cached one, runs). CuTeDSL: autotune_jit, which compiles its candidates at run time;
// ours are the plans built ahead of time.
#include "plans.hpp"

#include <cute_cpp/host/tune_cache.hpp>

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace cute_cpp::examples {

/// Times the bf16 TN tiles per shape and runs the winner (see the file comment). Thread-safe.
class GemmTuner {
 public:
  /// The cache file is read once here; a corrupt one is ignored with a warning on stderr.
  explicit GemmTuner(std::filesystem::path cache_path = host::default_tune_cache_path());

  /// The tile for args' shape: cached, or measured now on args' buffers (C is overwritten; the
  /// workspace is args'), or, while `stream` records a graph, the heuristic's.
  GemmTile tile(GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream);

  /// run_gemm_bf16_tn's work with tile(args, stream).
  void run(GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream);

  /// The tuner run_gemm_bf16_tn uses under CUTE_CPP_TUNE=1 (one per process).
  static GemmTuner& process();

 private:
  GemmTile measure(GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream) const;
  host::TuneKey key(GemmArguments<plans::Bf16TN> const& args) const;

  std::filesystem::path path_;
  std::mutex mutex_;
  host::TuneCache cache_;
  std::string gpu_;
  int clock_class_ = 0;
};

/// Whether CUTE_CPP_TUNE=1 is set (read once).
bool gemm_tuning_enabled();

}  // namespace cute_cpp::examples
