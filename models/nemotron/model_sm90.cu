// SPDX-License-Identifier: Apache-2.0
// models/nemotron/model_sm90.cu: the Nemotron-H decoder's passes (model.hpp). Per layer, as
// transformers' NemotronHBlock: h = h + mixer(rmsnorm(h)), the residual in bf16 (residual_in_fp32 is
// not read by NemotronHBlock); here the add is fused into the next norm (kernels/rows/rmsnorm.cuh:
// residual_[] keeps the sum, delta_ holds the last mixer's output), and after the last layer
// norm_f and the LM head. The mixers are in mixers_sm90.cu.
#include "models/nemotron/model_impl.hpp"

#include "models/common/error.hpp"
#include "models/common/linear.cuh"  // normed_linear_takes
#include "models/nemotron/weights.hpp"
#include "models/qwen3/layer_kernels.cuh"  // gather_rows

#include <cute_cpp/host/error.hpp>
#include <cute_cpp/host/graph_pdl.hpp>  // make_kernel_edges_programmatic
#include <cute_cpp/kernels/rows/instances.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

namespace cute_cpp::models {

namespace nemotron_detail {

namespace kn = cute_cpp::kernels;
using host::cuda_check;

namespace {

template <class T>
void upload_async(DeviceBuffer<T>& d, const std::vector<T>& h, cudaStream_t stream) {
  if (h.empty()) return;
  if (d.size() < h.size()) throw std::logic_error("cute-cpp: a batch table outgrew its device buffer");
  cuda_check(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream),
             "cudaMemcpyAsync(batch)");
}

std::string num(std::int64_t v) { return std::to_string(v); }

}  // namespace

Model::Model(const std::filesystem::path& folder, NemotronOptions options, std::optional<std::uint64_t> random_seed)
    : config_(read_nemotron_h_config(folder)),
      options_([&] {
        check_nemotron_support(config_);
        return resolve_options(config_, options);
      }()),
      layout_(config_),
      pages_(KvPages::Shape{options_.num_pages, options_.page_size,
                            (options_.max_seq + options_.page_size - 1) / options_.page_size, options_.max_batch}) {
  hidden_ = int(config_.hidden_size);
  inner_ = config_.mamba.intermediate_size();
  conv_dim_ = config_.mamba.conv_dim();
  in_proj_width_ = config_.mamba.in_proj_size();
  attn_width_ = config_.num_attention_heads * config_.head_dim;
  qkv_width_ = attn_width_ + 2 * config_.num_key_value_heads * config_.head_dim;

  NemotronHWeightManifest const manifest(config_);
  weights_ = random_seed ? nemotron_random_weights(manifest, *random_seed) : nemotron_checkpoint_weights(folder, manifest);
  weight_bytes_ = manifest.total_bytes();
  cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");

  std::size_t const slots = std::size_t(options_.max_batch);
  conv_states_ = DeviceBuffer<bf16>(std::size_t(layout_.mamba_layers()) * slots * std::size_t(layout_.conv_state_elems()));
  ssm_states_ = DeviceBuffer<float>(std::size_t(layout_.mamba_layers()) * slots * std::size_t(layout_.ssm_state_elems()));
  scratch_page_ = options_.num_pages;
  layer_cache_elems_ = std::int64_t(options_.num_pages + 1) * options_.page_size * layout_.kv_token_elems();
  k_cache_ = DeviceBuffer<bf16>(std::size_t(layer_cache_elems_) * std::size_t(layout_.attention_layers()));
  v_cache_ = DeviceBuffer<bf16>(std::size_t(layer_cache_elems_) * std::size_t(layout_.attention_layers()));
  block_table_ = DeviceBuffer<std::int32_t>(slots * std::size_t(pages_.shape().max_pages_per_seq));
  seqlens_ = DeviceBuffer<std::int32_t>(slots);
  cu_seqlens_ = DeviceBuffer<std::int32_t>(slots + 1);
  last_rows_ = DeviceBuffer<std::int32_t>(slots);
  state_slots_ = DeviceBuffer<std::int32_t>(slots);
  gemm_workspace_.moves = decode_workspace_.moves = moe_workspace_.moves = ssd_workspace_.moves = &buffer_moves_;
}

Model::~Model() {
  for (auto& [rows, exec] : graphs_) (void)cudaGraphExecDestroy(exec);
  if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
}

void Model::grow_activations(std::int64_t tokens) {
  if (tokens <= capacity_) return;
  ++buffer_moves_;
  capacity_ = std::max<std::int64_t>(tokens, std::max<std::int64_t>(64, capacity_ * 2));
  auto const make = [&](DeviceBuffer<bf16>& b, std::int64_t width) {
    b = DeviceBuffer<bf16>(std::size_t(capacity_ * std::max<std::int64_t>(width, 1)));
    // Zeroed: a decode step's padding rows skip the conv and state updates and keep what is there.
    cuda_check(cudaMemsetAsync(b.data(), 0, b.bytes(), stream_), "cudaMemsetAsync(activations)");
  };
  make(residual_.buffer[0], hidden_), make(residual_.buffer[1], hidden_), make(delta_, hidden_), make(normed_, hidden_);
  make(zxbcdt_, in_proj_width_), make(xbc_, conv_dim_), make(y_, inner_), make(gated_, inner_);
  make(qkv_, qkv_width_), make(attn_, attn_width_), make(mlp_hidden_, config_.intermediate_size);
  ids_ = DeviceBuffer<std::int32_t>(std::size_t(capacity_));
}

void Model::zero_states(int slot) {
  // One strided clear per state kind: the slot's piece of every Mamba-2 layer.
  if (layout_.mamba_layers() == 0) return;
  std::size_t const conv = std::size_t(layout_.conv_state_elems()) * sizeof(bf16);
  std::size_t const ssm = std::size_t(layout_.ssm_state_elems()) * sizeof(float);
  std::size_t const slots = std::size_t(options_.max_batch);
  cuda_check(cudaMemset2DAsync(reinterpret_cast<std::byte*>(conv_states_.data()) + std::size_t(slot) * conv,
                               conv * slots, 0, conv, std::size_t(layout_.mamba_layers()), stream_),
             "cudaMemset2DAsync(conv states)");
  cuda_check(cudaMemset2DAsync(reinterpret_cast<std::byte*>(ssm_states_.data()) + std::size_t(slot) * ssm, ssm * slots,
                               0, ssm, std::size_t(layout_.mamba_layers()), stream_),
             "cudaMemset2DAsync(ssm states)");
}

void Model::check_slots(std::span<const int> slots, std::span<const int> added) const {
  if (int(slots.size()) > options_.max_batch)
    throw LoadError(kNemotronInputRule, num(std::int64_t(slots.size())) + " sequences exceed max_batch " +
                                            num(options_.max_batch));
  std::vector<int> seen(slots.begin(), slots.end());
  std::sort(seen.begin(), seen.end());
  if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
    throw LoadError(kNemotronInputRule, "a sequence slot appears twice in one pass");
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (slots[i] < 0 || slots[i] >= options_.max_batch)
      throw LoadError(kNemotronInputRule, "slot " + num(slots[i]) + " is outside [0, " + num(options_.max_batch) + ")");
    int const len = pages_.length(slots[i]) + added[i];  // throws for a slot not in use
    if (len > options_.max_seq || len > config_.max_position_embeddings)
      throw LoadError(kNemotronInputRule, "sequence slot " + num(slots[i]) + " would hold " + num(len) +
                                              " tokens; max_seq is " + num(options_.max_seq) +
                                              ", max_position_embeddings " + num(config_.max_position_embeddings));
  }
}

std::vector<int> Model::prefill(std::span<const std::vector<std::int32_t>> prompts, LogitsRows rows) {
  check_prompts(config_, options_.max_seq, prompts, 0);
  if (prompts.empty()) return {};
  if (prompts.size() > std::size_t(options_.max_batch))
    throw LoadError(kNemotronInputRule, num(std::int64_t(prompts.size())) + " prompts exceed max_batch " +
                                            num(options_.max_batch));
  check_prefill_tokens(prompts);  // before any slot or page is taken
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
  for (int s : slots) zero_states(s);
  Batch const batch = stage_prompts(slots, prompts, Batch::Kind::fresh);
  upload(batch);
  forward(batch, rows);
  return slots;
}

void Model::extend(std::span<const int> slots, std::span<const std::vector<std::int32_t>> chunks, LogitsRows rows) {
  if (slots.size() != chunks.size())
    throw LoadError(kNemotronInputRule, num(std::int64_t(chunks.size())) + " chunks for " +
                                            num(std::int64_t(slots.size())) + " sequences");
  check_prompts(config_, 0, chunks, 0);
  std::vector<int> added;
  for (auto const& c : chunks) added.push_back(int(c.size()));
  check_slots(slots, added);
  check_prefill_tokens(chunks);  // before the sequences grow
  if (slots.empty()) return;
  for (std::size_t i = 0; i < slots.size(); ++i) pages_.grow(slots[i], pages_.length(slots[i]) + added[i]);
  Batch const batch = stage_prompts(slots, chunks, Batch::Kind::extend);
  upload(batch);
  forward(batch, rows);
}

void Model::check_prefill_tokens(std::span<const std::vector<std::int32_t>> prompts) const {
  std::int64_t total = 0;
  for (auto const& p : prompts) total += std::int64_t(p.size());
  if (total > options_.max_prefill_tokens)
    throw LoadError(kNemotronInputRule, num(total) + " prompt tokens exceed max_prefill_tokens " +
                                            num(options_.max_prefill_tokens));
}

Batch Model::stage_prompts(std::span<const int> slots, std::span<const std::vector<std::int32_t>> prompts,
                           Batch::Kind kind) {
  std::int64_t total = 0;
  int longest = 0;
  for (std::size_t b = 0; b < prompts.size(); ++b) {
    total += std::int64_t(prompts[b].size());
    longest = std::max(longest, pages_.length(slots[b]));
  }
  grow_activations(total);
  h_ids_.clear(), h_seqlens_.clear(), h_block_table_.clear(), h_last_rows_.clear(), h_state_slots_.clear();
  h_cu_seqlens_.assign(1, 0);
  for (std::size_t b = 0; b < prompts.size(); ++b) {
    auto const& p = prompts[b];
    int const len = pages_.length(slots[b]);
    h_ids_.insert(h_ids_.end(), p.begin(), p.end());
    h_cu_seqlens_.push_back(h_cu_seqlens_.back() + std::int32_t(p.size()));
    h_seqlens_.push_back(len);
    h_last_rows_.push_back(h_cu_seqlens_.back() - 1);
    h_state_slots_.push_back(slots[b]);
    auto const row = pages_.row(slots[b]);
    h_block_table_.insert(h_block_table_.end(), row.begin(), row.end());
  }
  return Batch{.tokens = total, .sequences = int(prompts.size()), .kind = kind, .max_len = longest};
}

void Model::upload(Batch const& batch) {
  upload_async(ids_, h_ids_, stream_);
  upload_async(seqlens_, h_seqlens_, stream_);
  upload_async(block_table_, h_block_table_, stream_);
  upload_async(state_slots_, h_state_slots_, stream_);
  if (batch.kind != Batch::Kind::decode) {
    upload_async(cu_seqlens_, h_cu_seqlens_, stream_);
    upload_async(last_rows_, h_last_rows_, stream_);
  }
}

void Model::decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids) {
  int const n = stage_decode(slots, ids, device_ids);
  if (n == 0) return;
  record_or_replay(upload_decode(n));
  logits_rows_ = n;
}

int Model::stage_decode(std::span<const int> slots, std::span<const std::int32_t> ids, const std::int32_t* device_ids) {
  int const n = int(slots.size());
  if (n == 0) return 0;
  if (device_ids == nullptr) {
    if (ids.size() != slots.size())
      throw LoadError(kNemotronInputRule, num(std::int64_t(ids.size())) + " ids for " + num(n) + " sequences");
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] < 0 || ids[i] >= config_.vocab_size)
        throw LoadError(kNemotronInputRule, "id " + num(ids[i]) + " at row " + num(std::int64_t(i)) +
                                                " is outside [0, " + num(config_.vocab_size) + ")");
  }
  check_slots(slots, std::vector<int>(slots.size(), 1));
  for (int s : slots) pages_.grow(s, pages_.length(s) + 1);
  grow_activations(options_.max_batch);
  h_ids_.assign(ids.begin(), ids.end());
  h_seqlens_.clear(), h_block_table_.clear(), h_state_slots_.clear();
  for (int s : slots) {
    h_seqlens_.push_back(pages_.length(s));
    h_state_slots_.push_back(s);
    auto const row = pages_.row(s);
    h_block_table_.insert(h_block_table_.end(), row.begin(), row.end());
  }
  if (device_ids != nullptr)
    cuda_check(cudaMemcpyAsync(ids_.data(), device_ids, std::size_t(n) * sizeof(std::int32_t),
                               cudaMemcpyDeviceToDevice, stream_),
               "cudaMemcpyAsync(ids)");
  return n;
}

Batch Model::upload_decode(int n) {
  // Padded to a power of two (or max_batch): a handful of graphs serve every batch size. Padding
  // rows: token 0, a one-token sequence in the scratch page, state slot -1 (the SSM kernels skip it).
  int rows = 1;
  while (rows < n) rows *= 2;
  rows = std::min(rows, options_.max_batch);
  int const max_pages = pages_.shape().max_pages_per_seq;
  if (!h_ids_.empty()) h_ids_.resize(std::size_t(rows), 0);
  h_seqlens_.resize(std::size_t(rows), 1);
  h_state_slots_.resize(std::size_t(rows), -1);
  for (int r = n; r < rows; ++r) {
    h_block_table_.push_back(scratch_page_);
    h_block_table_.insert(h_block_table_.end(), std::size_t(max_pages - 1), -1);
  }
  Batch const batch{.tokens = rows, .sequences = rows, .kind = Batch::Kind::decode, .max_len = options_.max_seq,
                    .graph = true};
  upload(batch);
  return batch;
}

void Model::mark(const char* name) { marks_.mark(name, stream_); }

std::vector<NemotronPhase> Model::profile_decode(std::span<const int> slots, std::span<const std::int32_t> ids,
                                                 int replays) {
  if (replays < 1) throw LoadError(kNemotronInputRule, "profile_decode needs at least one replay");
  int const n = stage_decode(slots, ids, nullptr);
  if (n == 0) return {};
  std::vector<NemotronPhase> phases = profile_step(upload_decode(n), replays);
  logits_rows_ = n;
  return phases;
}

MarginalProfile Model::marginal_decode(std::span<const int> slots, std::span<const std::int32_t> ids, int replays) {
  if (replays < 1) throw LoadError(kNemotronInputRule, "marginal_decode needs at least one replay");
  int const n = stage_decode(slots, ids, nullptr);
  if (n == 0) return {};
  Batch const batch = upload_decode(n);
  MarginalProfile profile =
      marks_.marginal([&] { forward(batch, LogitsRows::All); }, stream_, options_.programmatic_launch, replays);
  logits_rows_ = n;
  return profile;
}

std::vector<NemotronPhase> Model::profile_step(Batch const& batch, int replays) {
  forward(batch, LogitsRows::All);  // sizes every workspace outside the recording
  return marks_.profile([&] { forward(batch, LogitsRows::All); }, stream_, replays);
}

void Model::record_or_replay(Batch const& batch) {
  if (graphs_recorded_at_ != buffer_moves_) {
    for (auto& [rows, exec] : graphs_) (void)cudaGraphExecDestroy(exec);
    graphs_.clear();
    graphs_recorded_at_ = buffer_moves_;
  }
  auto const found = graphs_.find(batch.sequences);
  if (!options_.cuda_graphs || graphs_off_) return forward(batch, LogitsRows::All);
  if (found != graphs_.end()) {
    cuda_check(cudaGraphLaunch(found->second, stream_), "cudaGraphLaunch(decode step)");
    return;
  }
  forward(batch, LogitsRows::All);  // sizes every workspace; then the same launches are recorded
  graphs_recorded_at_ = buffer_moves_;
  // Every kernel of the step waits for its predecessor's memory before touching global memory
  // (griddepcontrol.wait: the GEMMs, norms, SSM, attention and MoE kernels).
  host::RecordedGraph const r =
      host::record_graph(stream_, options_.programmatic_launch, [&] { forward(batch, LogitsRows::All); });
  if (!r.what.empty())
    std::fprintf(stderr, "cute-cpp-nemotron: recording the decode step failed (%s)\n", r.what.c_str());
  if (r.exec != nullptr) {
    graphs_.emplace(batch.sequences, r.exec);
  } else {
    graphs_off_ = true;
    std::fprintf(stderr, "cute-cpp-nemotron: no CUDA graph for the decode step (%s); decoding eagerly\n",
                 cudaGetErrorString(r.error));
  }
}

/// The pass over the uploaded batch: only launches on stream_ (and, outside a recording, buffers
/// that grow), so that a decode step can be recorded as a CUDA graph.
void Model::forward(Batch const& batch, LogitsRows rows) {
  std::int64_t const t = batch.tokens;
  float const eps = float(config_.layer_norm_epsilon);
  residual_.begin();
  gather_rows(weights_.embed.data(), config_.vocab_size, ids_.data(), delta_.data(), t, hidden_, stream_);
  mark("embedding");
  // h += delta (the last mixer's output), normed = rmsnorm(h) * w; the first layer's h is the embedding.
  auto const add_norm = [&](bf16 const* w) {
    residual_.add_norm(delta_.data(), w, normed_.data(), t, hidden_, eps, stream_);
    mark("add + rmsnorm");
  };
  // A decode step's Mamba and attention layers norm inside their input projection, its MoE layers
  // inside the router's launch (fuse_norms).
  bool const fuse = options_.fuse_norms && normed_linear_takes(t, hidden_);
  for (std::size_t l = 0; l < weights_.layers.size(); ++l) {
    NemotronLayerWeights const& w = weights_.layers[l];
    bool const fold = fuse && w.kind != NemotronHLayerKind::mlp;
    if (!fold) add_norm(w.norm.data());
    switch (w.kind) {
      case NemotronHLayerKind::mamba: mamba(batch, w, layout_.mamba_index(int(l)), fold); break;
      case NemotronHLayerKind::attention: attention(batch, w, layout_.attention_index(int(l)), fold); break;
      case NemotronHLayerKind::moe: moe(batch, w, fold); break;
      case NemotronHLayerKind::mlp: mlp(batch, w); break;
    }
  }
  add_norm(weights_.final_norm.data());
  bf16 const* head_in = normed_.data();
  logits_rows_ = int(t);
  if (rows == LogitsRows::Last && batch.kind != Batch::Kind::decode) {
    if (last_.size() < std::size_t(batch.sequences) * std::size_t(hidden_))
      last_ = DeviceBuffer<bf16>(std::size_t(options_.max_batch) * std::size_t(hidden_));
    gather_rows(normed_.data(), t, last_rows_.data(), last_.data(), batch.sequences, hidden_, stream_);
    head_in = last_.data();
    logits_rows_ = batch.sequences;
  }
  if (logits_.size() < std::size_t(logits_rows_) * std::size_t(config_.vocab_size)) {
    logits_ = DeviceBuffer<bf16>(std::size_t(logits_rows_) * std::size_t(config_.vocab_size));
    ++buffer_moves_;
  }
  linear(head_in, weights_.output(), logits_.data(), logits_rows_, config_.vocab_size, hidden_);
  mark("lm head");
  cuda_check(cudaGetLastError(), "forward");
}

}  // namespace nemotron_detail

std::unique_ptr<NemotronModel> NemotronModel::load(const std::filesystem::path& folder, NemotronOptions options) {
  return std::make_unique<nemotron_detail::Model>(folder, options, std::nullopt);
}

std::unique_ptr<NemotronModel> NemotronModel::with_random_weights(const std::filesystem::path& folder,
                                                                  std::uint64_t seed, NemotronOptions options) {
  return std::make_unique<nemotron_detail::Model>(folder, options, seed);
}

}  // namespace cute_cpp::models
