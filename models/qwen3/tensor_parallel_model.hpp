// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/tensor_parallel_model.hpp: a Qwen3 model split over N ranks (tensor_parallel.md), seen
// as one Qwen3Model: N rank models (Qwen3Model::load_rank), each call run on every rank at once, one
// host thread a rank, each on its device. Over NCCL, rank r runs on GPU r; emulated, every rank runs
// on the current GPU and the collectives are done by the host (collectives.hpp), so that the
// per-rank model can be checked against the one-device model on one GPU.
#include <cstdint>     // std::uint64_t
#include <filesystem>  // std::filesystem::path
#include <memory>      // std::unique_ptr
#include <optional>    // std::optional

#include "models/qwen3/model.hpp"  // Qwen3Model, Qwen3Options

namespace cute_cpp::models {

struct TensorParallelOptions {
  int ranks = 1;
  /// All ranks on the current device, the collectives by the host (eager launches only); else
  /// NCCL, rank r on device r (at ranks == 1 too: a communicator of one rank, in the decode graphs).
  bool emulate = false;
  /// Qwen3Model::with_random_weights' seed: each rank gets its part of the same values.
  std::optional<std::uint64_t> random_seed;
};

/// The model of `folder` split over `tp.ranks` ranks. logits() is rank 0's all-gathered copy (on
/// device 0), in logits_layout(); stream() is rank 0's. Calls must come from one thread.
/// @pre Qwen3Model::load_rank's for every rank; NCCL's (tp.nccl, tp.nccl-call) unless emulated.
[[nodiscard]] std::unique_ptr<Qwen3Model> load_tensor_parallel(const std::filesystem::path& folder,
                                                               Qwen3Options options, TensorParallelOptions tp);

}  // namespace cute_cpp::models
