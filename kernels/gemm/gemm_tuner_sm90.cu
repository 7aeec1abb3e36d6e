// SPDX-License-Identifier: Apache-2.0
// GemmTuner (gemm_tuner.hpp): the cache and the choice among the tiles timed.
#include <cute_cpp/kernels/gemm/gemm_tuner.hpp>

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

namespace cute_cpp::kernels {

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

GemmChoice GemmTuner::choice(std::string const& kind, std::int64_t m, std::int64_t n, std::int64_t k, GemmChoice first,
                             bool capturing, std::function<double(GemmChoice)> const& time) {
  host::TuneKey const key{gpu_, clock_class_, kind, m, n, k};
  {
    std::lock_guard lock(mutex_);
    if (host::TuneEntry const* e = cache_.find(key)) {
      if (std::optional<GemmChoice> const c = parse_gemm_choice(e->plan)) return *c;
      std::fprintf(stderr, "cute-cpp [tune.cache]: %s: no choice \"%s\" in this build; measuring again\n",
                   path_.string().c_str(), e->plan.c_str());
    }
  }
  if (capturing) return first;
  GemmChoice best = first;
  double best_us = time(best);
  for (auto const& [tile, name] : gemm_tile_names) {
    GemmChoice const candidate{tile};
    if (candidate.tile == first.tile && first.decomposition == Decomposition::Heuristic) continue;
    double const us = time(candidate);
    if (us < best_us) {
      best = candidate;
      best_us = us;
    }
  }
  if (!(best_us < std::numeric_limits<double>::infinity())) return best;  // every choice refused: let run say why
  std::lock_guard lock(mutex_);
  cache_.put({key, gemm_choice_name(best), best_us});
  try {
    cache_.write(path_);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "%s (the winner is kept for this process only)\n", e.what());
  }
  return best;
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

}  // namespace cute_cpp::kernels
