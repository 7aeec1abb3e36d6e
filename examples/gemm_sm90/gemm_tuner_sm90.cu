// SPDX-License-Identifier: Apache-2.0
// GemmTuner (gemm_tuner.hpp): timing the compiled bf16 TN tiles on a call's own buffers.
#include "gemm_tuner.hpp"

#include <cute_cpp/host/arguments.hpp>  // capturing
#include <cute_cpp/host/error.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

namespace cute_cpp::examples {

namespace {

/// Runs `tile`'s plan on args.
void run_tile(GemmTile tile, GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream) {
  with_tile_plan(tile, args, [&]<class P>(std::type_identity<P>, auto const& a) { run_gemm<P>(a, stream); });
}

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

/// The median microseconds of `runs` launches of `tile` after two unclocked ones; infinity when
/// the tile refuses the arguments.
double time_tile(GemmTile tile, GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream, int runs) {
  try {
    for (int i = 0; i < 2; ++i) run_tile(tile, args, stream);
  } catch (std::exception const&) {
    return std::numeric_limits<double>::infinity();
  }
  EventPair events;
  std::vector<double> us;
  for (int i = 0; i < runs; ++i) {
    host::cuda_check(cudaEventRecord(events.start, stream), "cudaEventRecord");
    run_tile(tile, args, stream);
    host::cuda_check(cudaEventRecord(events.stop, stream), "cudaEventRecord");
    host::cuda_check(cudaEventSynchronize(events.stop), "cudaEventSynchronize");
    float ms = 0.0f;
    host::cuda_check(cudaEventElapsedTime(&ms, events.start, events.stop), "cudaEventElapsedTime");
    us.push_back(double(ms) * 1e3);
  }
  std::nth_element(us.begin(), us.begin() + std::ptrdiff_t(us.size() / 2), us.end());
  return us[us.size() / 2];
}

}  // namespace

GemmTuner::GemmTuner(std::filesystem::path cache_path) : path_(std::move(cache_path)) {
  std::string warning;
  cache_ = host::TuneCache::read(path_, &warning);
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
  int device = 0;
  host::cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp properties{};
  host::cuda_check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
  gpu_ = properties.name;
  int clock_khz = 0;
  host::cuda_check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device), "cudaDeviceGetAttribute");
  clock_class_ = clock_khz / 100'000;
}

host::TuneKey GemmTuner::key(GemmArguments<plans::Bf16TN> const& args) const {
  return {gpu_, clock_class_, "gemm bf16 TN", args.m, args.n, args.k};
}

GemmTile GemmTuner::tile(GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream) {
  host::TuneKey const k = key(args);
  {
    std::lock_guard lock(mutex_);
    if (host::TuneEntry const* e = cache_.find(k)) {
      if (std::optional<GemmTile> const t = parse_gemm_tile(e->plan)) return *t;
      std::fprintf(stderr, "cute-cpp [tune.cache]: %s: no tile \"%s\" in this build; measuring again\n",
                   path_.string().c_str(), e->plan.c_str());
    }
  }
  if (host::capturing(stream)) return choose_gemm_tile(args.m, args.n, args.k, host::multiprocessor_count());
  GemmTile best = choose_gemm_tile(args.m, args.n, args.k, host::multiprocessor_count());
  double best_us = time_tile(best, args, stream, 5);
  for (auto const& [candidate, name] : gemm_tile_names) {
    if (candidate == best) continue;
    double const us = time_tile(candidate, args, stream, 5);
    if (us < best_us) {
      best = candidate;
      best_us = us;
    }
  }
  if (!(best_us < std::numeric_limits<double>::infinity())) return best;  // every tile refused: let run say why
  std::lock_guard lock(mutex_);
  cache_.put({k, std::string(gemm_tile_name(best)), best_us});
  try {
    cache_.write(path_);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "%s (the winner is kept for this process only)\n", e.what());
  }
  return best;
}

void GemmTuner::run(GemmArguments<plans::Bf16TN> const& args, cudaStream_t stream) {
  check_gemm_arguments(args, plans::Bf16TN::major_a, plans::Bf16TN::major_b, plans::Bf16TN::layout_c, false);
  run_tile(tile(args, stream), args, stream);
}

GemmTuner& GemmTuner::process() {
  static GemmTuner tuner;
  return tuner;
}

bool gemm_tuning_enabled() {
  static bool const on = [] {
    char const* v = std::getenv("CUTE_CPP_TUNE");
    return v != nullptr && std::string_view(v) == "1";
  }();
  return on;
}

}  // namespace cute_cpp::examples
