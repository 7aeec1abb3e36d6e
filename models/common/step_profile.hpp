// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/step_profile.hpp: a decode step's time phase by phase (the model programs' bench
// --profile / --breakdown), from CUDA events recorded between the phases of one step in a graph,
// replayed; step_phases (host arithmetic, CPU-tested) turns the replays' gaps into phases. And the
// same phases' costs inside the step as it runs (--marginal): marginal_phases.
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cute_cpp::models {

/// One phase of a decode step: its launches' time a step, summed over the layers that run it.
struct StepPhase {
  std::string name;     ///< "qkv gemm", "moe experts", ...
  double microseconds;  ///< the median over the replays of the step's sum
  int count;            ///< times the phase runs a step
};

/// The phases of a step recorded with marks: `names[i]` (i >= 1) closes the phase that began at mark
/// i - 1 (names[0] opens the step), and `gaps[r][i - 1]` is that phase's time in replay r, in
/// microseconds. Per name, in the order of first appearance: the median over the replays of each
/// replay's sum over the name's phases (the upper middle one of an even count), and how many phases
/// a step has of that name.
/// @pre every replay has names.size() - 1 gaps, and there is at least one (std::invalid_argument).
[[nodiscard]] std::vector<StepPhase> step_phases(std::span<const char* const> names,
                                                 std::span<const std::vector<double>> gaps);

/// A step's time phase by phase as it runs (StepMarks::marginal): each phase's cost is the whole
/// step's time less the step's time with that phase's launches disabled, so launches that PDL
/// overlaps with their neighbours cost what they add, not what they take alone.
struct MarginalProfile {
  double step_microseconds = 0.0;  ///< the whole step's median time
  std::vector<StepPhase> phases;   ///< each: the median over replays of whole - without (noise may make it < 0)
};

/// The marginal profile from paired replays: `whole[r]` the whole step's time in replay r, and
/// `without[p][r]` the step's time in the same replay with phase p's launches disabled; phase p is
/// named `names[p]` and closes `counts[p]` marks a step. Host arithmetic (CPU-tested).
/// @pre at least one replay, and names, counts and without of one size, each without[p] as long as
/// whole (std::invalid_argument).
[[nodiscard]] MarginalProfile marginal_phases(std::span<std::string const> names, std::span<int const> counts,
                                              std::span<double const> whole,
                                              std::span<const std::vector<double>> without);

/// bench --marginal's report of batch `batch`: `profile()`'s phases printed ("marginal batch B: ..."
/// lines, then the step); an empty profile where it throws std::runtime_error, printed as not measured
/// (a diagnostic: a driver may refuse disabled nodes, and the bench's other figures stand).
template <class Profile>
MarginalProfile report_marginal(int batch, Profile&& profile) {
  MarginalProfile m;
  try {
    m = profile();
  } catch (std::runtime_error const& e) {
    std::printf("marginal batch %d: not measured: %s\n", batch, e.what());
    return m;
  }
  double total = 0.0;
  for (StepPhase const& p : m.phases) {
    std::printf("marginal batch %d: %-22s %9.1f us a step (%d a step)\n", batch, p.name.c_str(), p.microseconds,
                p.count);
    total += p.microseconds;
  }
  std::printf("marginal batch %d: %-22s %9.1f us (the phases' sum %.1f us)\n", batch, "step", m.step_microseconds,
              total);
  return m;
}

}  // namespace cute_cpp::models
