// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/generate_loop.hpp: the generation loop every decoder shares (Qwen3Model, and
// models/nemotron's NemotronModel): prefill the prompts together, then decode the unfinished
// sequences together, one token each per step, drawing each token on the device (sampling.hpp) and
// stopping a sequence at a stop id or at max_new_tokens. A template over the model: it needs
// prefill, decode, release, logits, stream, config().vocab_size, options().max_seq and a
// check_prompts(config, max_seq, prompts, max_new_tokens) found by argument-dependent lookup.
#include <algorithm>   // std::find
#include <cstdint>     // std::int32_t
#include <functional>  // std::function
#include <span>        // std::span
#include <vector>      // std::vector

#include <cute_cpp/host/buffer.hpp>  // DeviceBuffer
#include <cute_cpp/host/error.hpp>   // cuda_check

#include "models/common/logits_rows.hpp"  // LogitsRows
#include "models/qwen3/sampling.hpp"      // SamplingParams, sample_tokens

namespace cute_cpp::models {

/// What generate() does besides the prompts.
struct GenerateOptions {
  int max_new_tokens = 128;
  SamplingParams sampling{};
  std::vector<std::int32_t> stop_ids;  ///< a sequence ends after emitting one of these (it is kept)
  /// Called with (prompt index, id) as each token is drawn, for streaming; may be empty.
  std::function<void(int, std::int32_t)> on_token;
};

/// sample_tokens over the model's logits: in its logits_layout() where it has one (a tensor-parallel
/// Qwen3 model's gathered shards), else row-major [rows, vocab].
template <class Model>
void sample_model_tokens(Model& model, int rows, SamplingParams const& sampling, std::uint64_t step, std::int32_t* ids,
                         void* workspace, std::size_t workspace_bytes) {
  int const vocab = int(model.config().vocab_size);
  if constexpr (requires { model.logits_layout(); })
    sample_tokens(model.logits(), model.logits_layout(), rows, vocab, sampling, step, nullptr, ids, workspace,
                  workspace_bytes, model.stream());
  else
    sample_tokens(model.logits(), vocab, rows, vocab, sampling, step, ids, workspace, workspace_bytes, model.stream());
}

/// The generated ids of each prompt (the prompt not included), for any decoder `model`.
/// @pre the prompts fit the model's cache with their max_new_tokens (the model's input rule).
template <class Model>
std::vector<std::vector<std::int32_t>> generate_tokens(Model& model, std::span<const std::vector<std::int32_t>> prompts,
                                                       const GenerateOptions& options) {
  std::vector<std::vector<std::int32_t>> out(prompts.size());
  if (prompts.empty() || options.max_new_tokens <= 0) return out;
  check_prompts(model.config(), model.options().max_seq, prompts, options.max_new_tokens);
  int const vocab = int(model.config().vocab_size);
  int const n = int(prompts.size());
  host::DeviceBuffer<std::int32_t> next{std::size_t(n)};
  host::DeviceBuffer<std::byte> workspace{sampling_workspace_bytes(n, vocab)};
  std::vector<std::int32_t> ids(static_cast<std::size_t>(n));
  std::vector<int> slots = model.prefill(prompts, LogitsRows::Last);
  std::vector<int> active;  // the prompt index of each row of the logits
  for (int i = 0; i < n; ++i) active.push_back(i);
  for (std::uint64_t step = 0;; ++step) {
    int const rows = int(active.size());
    sample_model_tokens(model, rows, options.sampling, step, next.data(), workspace.data(), workspace.bytes());
    host::cuda_check(cudaMemcpyAsync(ids.data(), next.data(), std::size_t(rows) * sizeof(std::int32_t),
                                     cudaMemcpyDeviceToHost, model.stream()),
                     "cudaMemcpyAsync(ids)");
    host::cuda_check(cudaStreamSynchronize(model.stream()), "cudaStreamSynchronize");
    std::vector<int> still, still_slots;
    std::vector<std::int32_t> feed;
    for (int r = 0; r < rows; ++r) {
      int const p = active[std::size_t(r)];
      std::int32_t const id = ids[std::size_t(r)];
      out[std::size_t(p)].push_back(id);
      if (options.on_token) options.on_token(p, id);
      bool const stop = std::find(options.stop_ids.begin(), options.stop_ids.end(), id) != options.stop_ids.end();
      if (stop || int(out[std::size_t(p)].size()) >= options.max_new_tokens) {
        model.release(slots[std::size_t(p)]);
      } else {
        still.push_back(p);
        still_slots.push_back(slots[std::size_t(p)]);
        feed.push_back(id);
      }
    }
    if (still.empty()) break;
    active = std::move(still);
    model.decode(still_slots, feed);
  }
  return out;
}

}  // namespace cute_cpp::models
