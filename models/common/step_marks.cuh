// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/common/step_marks.cuh: the marks between a decode step's phases. A model calls mark(name)
// after each phase's launches; it does nothing unless a profile records the step. Two profiles:
//   - profile(): an event at each mark, recorded into a CUDA graph and replayed; each phase's time
//     is the gap between its events (models/common/step_profile.hpp's step_phases). The events
//     break the kernels' programmatic edges, so each phase runs alone: what it takes, not what it
//     costs the step.
//   - marginal(): the step recorded as the decode graphs are (programmatic edges and all), each mark
//     noting the nodes its phase added; replays of the whole graph alternate with replays with one
//     phase's nodes disabled (cudaGraphNodeSetEnabled), and a phase costs the difference
//     (marginal_phases): what removing it would save, PDL overlap included.
#include <cute_cpp/host/error.hpp>       // cuda_check
#include <cute_cpp/host/graph_pdl.hpp>   // capture_graph, graph_nodes, added_nodes

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
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

  /// An event closing the phase `name` (a string literal: it is kept) while profile() records; the
  /// nodes the phase added while marginal() records.
  void mark(char const* name, cudaStream_t stream) {
    if (collecting_) {
      cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
      cudaGraph_t graph = nullptr;
      host::cuda_check(cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph), "cudaStreamGetCaptureInfo(mark)");
      std::vector<cudaGraphNode_t> now = host::graph_nodes(graph);
      phase_nodes_.push_back({name, host::added_nodes(seen_, now)});
      seen_ = std::move(now);
      return;
    }
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

  /// step() run once (sizing every workspace outside the recording), then recorded as a decode graph
  /// (`programmatic`: its kernel edges made programmatic, as host::record_graph makes them) and
  /// replayed `replays` times whole and with each phase's launches disabled in turn (after one
  /// warm-up of each); each phase's cost to the step (see the file comment). `max_launches` (0: no
  /// limit) bounds the step's runs, for a step whose runs each advance a sequence (a Qwen3-TTS
  /// frame): 1 + (replays + 1) x (phases + 1) of them. @pre every kernel of the step is ours (no
  /// collectives).
  template <class Step>
  MarginalProfile marginal(Step&& step, cudaStream_t stream, bool programmatic, int replays, int max_launches = 0) {
    step();
    phase_nodes_.clear();
    seen_.clear();
    collecting_ = true;
    host::CapturedGraph const captured =
        host::capture_graph(stream, programmatic, [](cudaGraphNode_t) { return true; }, [&] { step(); });
    collecting_ = false;
    if (captured.error != cudaSuccess) {
      std::string const why = captured.what.empty() ? cudaGetErrorString(captured.error) : captured.what;
      throw std::runtime_error("cute-cpp [models.profile]: a profiled step records as a CUDA graph: " + why);
    }
    Recording r(captured.graph);
    host::cuda_check(cudaGraphInstantiate(&r.exec, r.graph, 0), "cudaGraphInstantiate(marginal)");
    host::cuda_check(cudaEventCreate(&r.start), "cudaEventCreate(marginal)");
    host::cuda_check(cudaEventCreate(&r.end), "cudaEventCreate(marginal)");
    Phases const phases = group_phases();
    long long const launches = 1 + (replays + 1LL) * (long long)(phases.names.size() + 1);
    if (max_launches > 0 && launches > max_launches)
      throw std::runtime_error("cute-cpp [models.profile]: a marginal profile of " +
                               std::to_string(phases.names.size()) + " phases and " + std::to_string(replays) +
                               " replays launches the step " + std::to_string(launches) + " times, past the " +
                               std::to_string(max_launches) + " left");
    auto const replay = [&](std::size_t disabled) {  // one replay's microseconds; phases.size(): none
      if (disabled < phases.names.size()) r.enable(phases.nodes[disabled], false);
      host::cuda_check(cudaEventRecord(r.start, stream), "cudaEventRecord(marginal)");
      host::cuda_check(cudaGraphLaunch(r.exec, stream), "cudaGraphLaunch(marginal)");
      host::cuda_check(cudaEventRecord(r.end, stream), "cudaEventRecord(marginal)");
      host::cuda_check(cudaEventSynchronize(r.end), "cudaEventSynchronize(marginal)");
      if (disabled < phases.names.size()) r.enable(phases.nodes[disabled], true);
      float ms = 0.0f;
      host::cuda_check(cudaEventElapsedTime(&ms, r.start, r.end), "cudaEventElapsedTime(marginal)");
      return double(ms) * 1e3;
    };
    std::vector<double> whole;
    std::vector<std::vector<double>> without(phases.names.size());
    for (int i = 0; i < replays + 1; ++i) {
      double const w = replay(phases.names.size());
      if (i > 0) whole.push_back(w);
      for (std::size_t p = 0; p < phases.names.size(); ++p) {
        double const t = replay(p);
        if (i > 0) without[p].push_back(t);
      }
    }
    return marginal_phases(phases.names, phases.counts, whole, without);
  }

 private:
  /// A marginal profile's graph, executable graph and timing events, released however it ends.
  struct Recording {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    cudaEvent_t start = nullptr, end = nullptr;
    explicit Recording(cudaGraph_t g) : graph(g) {}
    Recording(Recording const&) = delete;
    Recording& operator=(Recording const&) = delete;
    ~Recording() {
      if (start != nullptr) (void)cudaEventDestroy(start);
      if (end != nullptr) (void)cudaEventDestroy(end);
      if (exec != nullptr) (void)cudaGraphExecDestroy(exec);
      if (graph != nullptr) (void)cudaGraphDestroy(graph);
    }
    /// Enables or disables `nodes` in the executable graph (kernel, memset and memcpy nodes).
    void enable(std::vector<cudaGraphNode_t> const& nodes, bool on) const {
      for (cudaGraphNode_t n : nodes)
        host::cuda_check(cudaGraphNodeSetEnabled(exec, n, on ? 1u : 0u), "cudaGraphNodeSetEnabled");
    }
  };
  /// The marks' nodes by phase name, in the order of first appearance: the kernel, memset and memcpy
  /// nodes (what an executable graph can disable), and how many marks close the phase.
  struct Phases {
    std::vector<std::string> names;
    std::vector<int> counts;
    std::vector<std::vector<cudaGraphNode_t>> nodes;
  };
  [[nodiscard]] Phases group_phases() const {
    Phases out;
    for (auto const& [name, nodes] : phase_nodes_) {
      std::size_t p = 0;
      while (p < out.names.size() && out.names[p] != name) ++p;
      if (p == out.names.size()) out.names.emplace_back(name), out.counts.push_back(0), out.nodes.emplace_back();
      ++out.counts[p];
      for (cudaGraphNode_t n : nodes) {
        cudaGraphNodeType type{};
        host::cuda_check(cudaGraphNodeGetType(n, &type), "cudaGraphNodeGetType(marginal)");
        if (type == cudaGraphNodeTypeKernel || type == cudaGraphNodeTypeMemset || type == cudaGraphNodeTypeMemcpy)
          out.nodes[p].push_back(n);
      }
    }
    return out;
  }

  bool recording_ = false;
  std::vector<char const*> names_;
  std::vector<cudaEvent_t> events_;
  // marginal()'s recording: whether mark() notes nodes, the nodes seen so far, and each mark's.
  bool collecting_ = false;
  std::vector<cudaGraphNode_t> seen_;
  std::vector<std::pair<char const*, std::vector<cudaGraphNode_t>>> phase_nodes_;
};

}  // namespace cute_cpp::models
