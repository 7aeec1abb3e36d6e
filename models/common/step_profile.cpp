// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#include "models/common/step_profile.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace cute_cpp::models {

namespace {
/// The upper middle value of an even count.
double median_of(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}
}  // namespace

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
  for (std::size_t p = 0; p < phases.size(); ++p) phases[p].microseconds = median_of(std::move(sums[p]));
  return phases;
}

MarginalProfile marginal_phases(std::span<std::string const> names, std::span<int const> counts,
                                std::span<double const> whole, std::span<const std::vector<double>> without) {
  if (whole.empty())
    throw std::invalid_argument("cute-cpp [models.profile]: a marginal profile needs at least one replay");
  if (names.size() != counts.size() || names.size() != without.size())
    throw std::invalid_argument("cute-cpp [models.profile]: " + std::to_string(names.size()) + " phase names, " +
                                std::to_string(counts.size()) + " counts and " + std::to_string(without.size()) +
                                " phases' replays");
  MarginalProfile profile;
  profile.step_microseconds = median_of(std::vector<double>(whole.begin(), whole.end()));
  for (std::size_t p = 0; p < names.size(); ++p) {
    if (without[p].size() != whole.size())
      throw std::invalid_argument("cute-cpp [models.profile]: phase \"" + names[p] + "\" has " +
                                  std::to_string(without[p].size()) + " replays for the whole step's " +
                                  std::to_string(whole.size()));
    std::vector<double> gain(whole.size());
    for (std::size_t r = 0; r < whole.size(); ++r) gain[r] = whole[r] - without[p][r];
    profile.phases.push_back({names[p], median_of(std::move(gain)), counts[p]});
  }
  return profile;
}

}  // namespace cute_cpp::models
