// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Host references and inputs on every core: the checks' float64 references and their random
// operands at model widths (a MoE layer's 10^9 weights) took minutes on one.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace cute_cpp::test {

/// work(job) for every job in [0, jobs), spread over the machine's cores (job j on worker j mod
/// workers); jobs must not depend on one another. Runs inline when there is one job or one core.
template <class Work>
void parallel_for(std::size_t jobs, Work const& work) {
  std::size_t const workers = std::min<std::size_t>(jobs, std::max(1u, std::thread::hardware_concurrency()));
  if (workers <= 1) {
    for (std::size_t j = 0; j < jobs; ++j) work(j);
    return;
  }
  std::vector<std::jthread> pool;
  for (std::size_t w = 1; w < workers; ++w)
    pool.emplace_back([&work, w, jobs, workers] {
      for (std::size_t j = w; j < jobs; j += workers) work(j);
    });
  for (std::size_t j = 0; j < jobs; j += workers) work(j);
}

}  // namespace cute_cpp::test
