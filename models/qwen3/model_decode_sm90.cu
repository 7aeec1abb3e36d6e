// SPDX-License-Identifier: Apache-2.0
// models/qwen3/model_decode_sm90.cu: the Qwen3 decoder's passes from the caller's side: prefill's and
// a decode step's host tables and their upload, the decode steps' CUDA graphs (one per padded batch
// size, recorded at its first step; programmatic edges with Qwen3Options::programmatic_launch), and
// profile_decode's recording with marks. The class is model_impl.hpp's.
#include "models/qwen3/model_impl.hpp"

#include "models/common/error.hpp"

#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/graph_pdl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <vector>

namespace cute_cpp::models::qwen3_detail {

namespace {

using host::cuda_check;

constexpr const char* kRuleEmulatedProfile =
    "cute-cpp [tp.emulate]: the emulated ranks' collectives wait on the host, so no CUDA graph can hold them "
    "(--profile needs one)";

template <class T>
void upload_async(DeviceBuffer<T>& d, const std::vector<T>& h, cudaStream_t stream) {
  cuda_check(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream),
             "cudaMemcpyAsync(batch)");
}

}  // namespace

void Model::mark(const char* name) { marks_.mark(name, stream_); }

std::vector<StepPhase> Model::profile_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                                             int replays) {
  if (replays < 1) throw LoadError(kQwen3InputRule, "profile_decode needs at least one replay");
  if (tp_ != nullptr && !tp_->capturable())
    throw LoadError(kRuleEmulatedProfile, "profile_decode records the step as a CUDA graph");
  int const n = stage_decode(slots, ids, nullptr);
  if (n == 0) return {};
  std::vector<StepPhase> phases = profile_step(upload_decode(n), replays);
  logits_rows_ = n;
  return phases;
}

MarginalProfile Model::marginal_decode(std::span<const int> slots, std::span<const std::int32_t> ids, int replays) {
  if (replays < 1) throw LoadError(kQwen3InputRule, "marginal_decode needs at least one replay");
  if (tp_ != nullptr) throw LoadError(kTpProfileRule, "marginal_decode of a rank's step");
  int const n = stage_decode(slots, ids, nullptr);
  if (n == 0) return {};
  Batch const batch = upload_decode(n);
  MarginalProfile profile =
      marks_.marginal([&] { forward(batch, LogitsRows::All); }, stream_, options_.programmatic_launch, replays);
  logits_rows_ = n;
  return profile;
}

std::vector<StepPhase> Model::profile_step(Batch const& batch, int replays) {
  forward(batch, LogitsRows::All);  // sizes every workspace outside the recording
  return marks_.profile([&] { forward(batch, LogitsRows::All); }, stream_, replays);
}

std::vector<int> Model::prefill(std::span<const std::vector<std::int32_t>> prompts, LogitsRows rows) {
  std::int64_t total = 0;
  int longest = 0;
  check_prompts(config_, options_.max_seq, prompts, 0);
  for (auto const& p : prompts) {
    total += std::int64_t(p.size());
    longest = std::max(longest, int(p.size()));
  }
  if (prompts.empty()) return {};
  if (total > options_.max_prefill_tokens)
    throw LoadError(kQwen3InputRule, std::to_string(total) + " prompt tokens exceed max_prefill_tokens " +
                                    std::to_string(options_.max_prefill_tokens));
  if (prompts.size() > std::size_t(options_.max_batch))
    throw LoadError(kQwen3InputRule, std::to_string(prompts.size()) + " prompts exceed max_batch " +
                                    std::to_string(options_.max_batch));
  std::vector<int> slots;
  try {
    for (auto const& p : prompts) {
      slots.push_back(pages_.add_sequence());
      pages_.grow(slots.back(), int(p.size()));
    }
  } catch (...) {
    for (int s : slots) pages_.release(s);
    throw;
  }
  grow_activations(total);
  h_ids_.clear(), h_positions_.clear(), h_seqlens_.clear(), h_block_table_.clear(), h_last_rows_.clear();
  h_cu_seqlens_.assign(1, 0);
  for (std::size_t b = 0; b < prompts.size(); ++b) {
    auto const& p = prompts[b];
    h_ids_.insert(h_ids_.end(), p.begin(), p.end());
    for (std::size_t i = 0; i < p.size(); ++i) h_positions_.push_back(std::int32_t(i));
    h_cu_seqlens_.push_back(h_cu_seqlens_.back() + std::int32_t(p.size()));
    h_seqlens_.push_back(std::int32_t(p.size()));
    h_last_rows_.push_back(h_cu_seqlens_.back() - 1);
    auto const row = pages_.row(slots[b]);
    h_block_table_.insert(h_block_table_.end(), row.begin(), row.end());
  }
  Batch const batch{.tokens = total, .sequences = int(prompts.size()), .decode = false, .max_len = longest};
  upload(batch);
  forward(batch, rows);
  return slots;
}

void Model::decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids) {
  if (int const n = stage_decode(slots, ids, device_ids); n > 0) decode_step(n);
}

int Model::stage_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                        const std::int32_t* device_ids) {
  int const n = int(slots.size());
  if (n == 0) return 0;
  if (n > options_.max_batch)
    throw LoadError(kQwen3InputRule,
                    std::to_string(n) + " sequences exceed max_batch " + std::to_string(options_.max_batch));
  if (device_ids == nullptr) {
    if (ids.size() != slots.size())
      throw LoadError(kQwen3InputRule, std::to_string(ids.size()) + " ids for " + std::to_string(n) + " sequences");
    check_ids(ids);
  }
  std::vector<int> seen(slots.begin(), slots.end());
  std::sort(seen.begin(), seen.end());
  if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
    throw LoadError(kQwen3InputRule, "a sequence slot appears twice in one decode step");
  for (int s : slots) {
    int const len = pages_.length(s) + 1;
    if (len > options_.max_seq || len > config_.max_positions())
      throw LoadError(kQwen3InputRule, "sequence slot " + std::to_string(s) + " would hold " + std::to_string(len) +
                                      " tokens; max_seq is " + std::to_string(options_.max_seq) + ", " +
                                      positions_text(config_));
  }
  for (int s : slots) pages_.grow(s, pages_.length(s) + 1);
  grow_activations(options_.max_batch);  // before ids_ is written: decode_step pads to at most max_batch rows
  h_ids_.assign(ids.begin(), ids.end());
  h_positions_.clear(), h_seqlens_.clear(), h_block_table_.clear(), h_last_rows_.clear();
  h_cu_seqlens_.clear();
  for (int s : slots) {
    h_positions_.push_back(pages_.length(s) - 1);
    h_seqlens_.push_back(pages_.length(s));
    auto const row = pages_.row(s);
    h_block_table_.insert(h_block_table_.end(), row.begin(), row.end());
  }
  if (device_ids != nullptr)
    cuda_check(cudaMemcpyAsync(ids_.data(), device_ids, std::size_t(n) * sizeof(std::int32_t),
                               cudaMemcpyDeviceToDevice, stream_),
               "cudaMemcpyAsync(ids)");
  return n;
}

Model::Batch Model::upload_decode(int n) {
  // Padded to a power of two (or max_batch), so that a handful of graphs serve every batch size.
  int rows = 1;
  while (rows < n) rows *= 2;
  rows = std::min(rows, options_.max_batch);
  // Padding rows: token 0 at position 0 of a one-token sequence in the scratch page.
  int const max_pages = pages_.shape().max_pages_per_seq;
  if (!h_ids_.empty()) h_ids_.resize(std::size_t(rows), 0);
  h_positions_.resize(std::size_t(rows), 0);
  h_seqlens_.resize(std::size_t(rows), 1);
  for (int r = n; r < rows; ++r) {
    h_block_table_.push_back(scratch_page_);
    h_block_table_.insert(h_block_table_.end(), std::size_t(max_pages - 1), -1);
  }
  Batch const batch{.tokens = rows, .sequences = rows, .decode = true, .max_len = options_.max_seq, .graph = true};
  upload(batch);
  return batch;
}

void Model::decode_step(int n) {
  Batch const batch = upload_decode(n);
  drop_stale_graphs();
  auto const found = graphs_.find(batch.sequences);
  if (!options_.cuda_graphs || graphs_off_) {
    forward(batch, LogitsRows::All);
  } else if (found != graphs_.end()) {
    cuda_check(cudaGraphLaunch(found->second, stream_), "cudaGraphLaunch(decode step)");
  } else {
    // This step runs eagerly, sizing every workspace; then the same launches are recorded.
    forward(batch, LogitsRows::All);
    record_decode_graph(batch);
  }
  logits_rows_ = n;
}

void Model::record_decode_graph(Batch const& batch) {
  foreign_nodes_.clear();
  // Every kernel edge but those into and out of the collectives' nodes (a rank's NCCL calls, gathered
  // while recording): on one device foreign_nodes_ is empty and every kernel edge becomes programmatic.
  auto const ours = [this](cudaGraphNode_t node) { return host::AllBut{foreign_nodes_}(node); };
  host::RecordedGraph const r =
      host::record_graph(stream_, options_.programmatic_launch, ours, [&] { forward(batch, LogitsRows::All); });
  if (!r.what.empty()) std::fprintf(stderr, "cute-cpp-qwen3: recording the decode step failed (%s)\n", r.what.c_str());
  if (r.exec != nullptr) {
    graphs_.emplace(batch.sequences, r.exec);
    graphs_recorded_at_ = buffer_moves_;
  } else {
    graphs_off_ = true;
    std::fprintf(stderr, "cute-cpp-qwen3: no CUDA graph for the decode step (%s); decoding eagerly\n",
                 cudaGetErrorString(r.error));
  }
}

void Model::upload(Batch const& batch) {
  if (!h_ids_.empty()) upload_async(ids_, h_ids_, stream_);
  upload_async(positions_, h_positions_, stream_);
  upload_async(seqlens_, h_seqlens_, stream_);
  upload_async(block_table_, h_block_table_, stream_);
  if (!batch.decode) {
    upload_async(cu_seqlens_, h_cu_seqlens_, stream_);
    upload_async(last_rows_, h_last_rows_, stream_);
  }
}

}  // namespace cute_cpp::models::qwen3_detail
