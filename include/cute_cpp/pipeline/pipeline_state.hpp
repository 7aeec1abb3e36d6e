// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// PipelineState<Stages>: where a producer or consumer is in a ring of Stages buffers: the stage
// index, the phase parity it waits on, and how many stages it has passed. CuTeDSL:
// pipeline.PipelineState, make_pipeline_state(PipelineUserType.Producer|Consumer, stages).
#include <cute_cpp/diag/pipeline.hpp>
#include <cute_cpp/config.hpp>

#include <cstdint>

namespace cute_cpp {

/// Who holds a PipelineState: the producer starts on phase 1 (its first waits on the empty
/// barriers pass at once), the consumer on phase 0.
enum class PipelineUserType { Producer, Consumer };

/// A position in a ring of Stages buffers.
template <int Stages>
struct PipelineState {
  static_assert(diag::pipeline_stages<Stages>::ok);
  std::uint32_t index_ = 0;
  std::uint32_t phase_ = 0;
  std::uint32_t count_ = 0;

  CUTE_CPP_HD constexpr std::uint32_t index() const { return index_; }
  CUTE_CPP_HD constexpr std::uint32_t phase() const { return phase_; }
  CUTE_CPP_HD constexpr std::uint32_t count() const { return count_; }

  /// Moves to the next stage, flipping the phase when the ring wraps.
  CUTE_CPP_HD constexpr void advance() {
    ++count_;
    if (++index_ == Stages) {
      index_ = 0;
      phase_ ^= 1u;
    }
  }
};

/// The start state for a producer or a consumer of a Stages-deep pipeline.
template <int Stages>
CUTE_CPP_HD constexpr PipelineState<Stages> make_pipeline_state(PipelineUserType who) {
  return PipelineState<Stages>{0, who == PipelineUserType::Producer ? 1u : 0u, 0};
}

}  // namespace cute_cpp
