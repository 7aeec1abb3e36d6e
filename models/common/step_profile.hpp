// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/step_profile.hpp: a decode step's time phase by phase (the model programs' bench
// --profile / --breakdown), from CUDA events recorded between the phases of one step in a graph,
// replayed; step_phases (host arithmetic, CPU-tested) turns the replays' gaps into phases.
#include <span>
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

}  // namespace cute_cpp::models
