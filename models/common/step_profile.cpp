// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#include "models/common/step_profile.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace cute_cpp::models {

std::vector<StepPhase> step_phases(std::span<const char* const> names, std::span<const std::vector<double>> gaps) {
  if (names.empty() || gaps.empty())
    throw std::invalid_argument("cute-cpp [models.profile]: a profiled step needs its opening mark and a replay");
  std::vector<StepPhase> phases;
  std::vector<std::size_t> of(names.size(), 0);  // each mark's phase
  for (std::size_t i = 1; i < names.size(); ++i) {
    std::size_t p = 0;
    while (p < phases.size() && phases[p].name != names[i]) ++p;
    if (p == phases.size()) phases.push_back({names[i], 0.0, 0});
    ++phases[p].count;
    of[i] = p;
  }
  std::vector<std::vector<double>> sums(phases.size());
  for (auto const& replay : gaps) {
    if (replay.size() + 1 != names.size())
      throw std::invalid_argument("cute-cpp [models.profile]: a replay has " + std::to_string(replay.size()) +
                                  " phase times for " + std::to_string(names.size() - 1) + " phases");
    std::vector<double> sum(phases.size(), 0.0);
    for (std::size_t i = 1; i < names.size(); ++i) sum[of[i]] += replay[i - 1];
    for (std::size_t p = 0; p < phases.size(); ++p) sums[p].push_back(sum[p]);
  }
  for (std::size_t p = 0; p < phases.size(); ++p) {
    auto& v = sums[p];
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    phases[p].microseconds = v[v.size() / 2];
  }
  return phases;
}

}  // namespace cute_cpp::models
