// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/step_marks.cuh: the events between a decode step's phases (models/common/step_profile.hpp
// turns their gaps into phases). A model calls mark(name) after each phase's launches, which records
// an event only while replay() records the step; replay() records one step with the marks into a CUDA
// graph, replays it (one warm-up, then `replays`) and returns each replay's gaps in microseconds.
#include <cute_cpp/host/error.hpp>  // cuda_check

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "models/common/step_profile.hpp"

namespace cute_cpp::models {

/// The marks of one profiled step (see the file comment). Events live as long as the object.
class StepMarks {
 public:
  StepMarks() = default;
  StepMarks(StepMarks const&) = delete;
  StepMarks& operator=(StepMarks const&) = delete;
  ~StepMarks() {
    for (cudaEvent_t e : events_) (void)cudaEventDestroy(e);
  }

  /// An event closing the phase `name` (a string literal: it is kept), while recording.
  void mark(char const* name, cudaStream_t stream) {
    if (!recording_) return;
    if (names_.size() == events_.size()) {
      cudaEvent_t e = nullptr;
      host::cuda_check(cudaEventCreate(&e), "cudaEventCreate(mark)");
      events_.push_back(e);
    }
    host::cuda_check(cudaEventRecordWithFlags(events_[names_.size()], stream, cudaEventRecordExternal),
                     "cudaEventRecordWithFlags(mark)");
    names_.push_back(name);
  }

  /// step() recorded once with the marks (an opening one first), replayed; the phases' median times.
  /// @pre step's launches were sized by a run before (nothing grows while recording).
  template <class Step>
  std::vector<StepPhase> profile(Step&& step, cudaStream_t stream, int replays) {
    names_.clear();
    cudaGraph_t graph = nullptr;
    host::cuda_check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed), "cudaStreamBeginCapture(profile)");
    recording_ = true;
    try {
      mark("start", stream);
      step();
    } catch (...) {
      recording_ = false;
      (void)cudaStreamEndCapture(stream, &graph);
      if (graph != nullptr) (void)cudaGraphDestroy(graph);
      throw;
    }
    recording_ = false;
    host::cuda_check(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture(profile)");
    cudaGraphExec_t exec = nullptr;
    cudaError_t const e = cudaGraphInstantiate(&exec, graph, 0);
    (void)cudaGraphDestroy(graph);
    host::cuda_check(e, "cudaGraphInstantiate(profile)");
    std::vector<std::vector<double>> gaps;
    try {
      for (int r = 0; r < replays + 1; ++r) {
        host::cuda_check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch(profile)");
        host::cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize(profile)");
        if (r == 0) continue;  // warm-up
        std::vector<double>& replay = gaps.emplace_back();
        for (std::size_t i = 1; i < names_.size(); ++i) {
          float ms = 0.0f;
          host::cuda_check(cudaEventElapsedTime(&ms, events_[i - 1], events_[i]), "cudaEventElapsedTime(profile)");
          replay.push_back(double(ms) * 1e3);
        }
      }
    } catch (...) {
      (void)cudaGraphExecDestroy(exec);
      throw;
    }
    (void)cudaGraphExecDestroy(exec);
    return step_phases(names_, gaps);
  }

 private:
  bool recording_ = false;
  std::vector<char const*> names_;
  std::vector<cudaEvent_t> events_;
};

}  // namespace cute_cpp::models
