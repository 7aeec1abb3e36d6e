// SPDX-License-Identifier: Apache-2.0
// models/qwen3/tensor_parallel.cpp: the shard plan of a Qwen3 checkpoint over N devices, its rules,
// and the decode step's traffic per rank. Buffer layouts are weights.hpp's packed ones on narrower
// shapes: a rank's QKV is [q_r | k_r | v_r] stacked by rows, its gate-up pack_gate_up's interleave of
// its own gate and up rows.
#include "models/qwen3/tensor_parallel.hpp"

#include <algorithm>  // std::min
#include <cstring>    // std::memcpy
#include <cmath>      // std::pow
#include <optional>   // std::optional

#include "models/common/error.hpp"  // LoadError

namespace cute_cpp::models {

namespace {
constexpr char kRuleRanks[] = "cute-cpp [tp.ranks]: --tensor-parallel needs at least 1 device";
constexpr char kRuleRank[] = "cute-cpp [tp.rank]: a rank must be one of 0 .. ranks - 1";
constexpr char kRuleGpus[] = "cute-cpp [tp.gpus]: --tensor-parallel may use at most the GPUs present";
constexpr char kRuleQHeads[] =
    "cute-cpp [tp.q-heads]: --tensor-parallel N must divide num_attention_heads (the attention splits by heads)";
constexpr char kRuleKvHeads[] =
    "cute-cpp [tp.kv-heads]: --tensor-parallel N must divide num_key_value_heads, or they must divide N (each kv "
    "head then replicated on N / num_key_value_heads devices)";
constexpr char kRuleIntermediate[] =
    "cute-cpp [tp.intermediate]: --tensor-parallel N must split intermediate_size into widths that are multiples of "
    "8 (the gate-up interleave block)";
constexpr char kRuleExperts[] =
    "cute-cpp [tp.experts]: --tensor-parallel N must divide num_experts (each device holds num_experts / N of them)";
constexpr char kRuleVocab[] =
    "cute-cpp [tp.vocab]: --tensor-parallel N must leave every device some of the vocabulary (ceil(vocab_size / N) "
    "rows each)";
constexpr char kRuleBatch[] = "cute-cpp [tp.batch]: a decode step holds at least one token";

struct Violation {
  const char* rule;
  std::string detail;
};

bool has_dense_mlp(const Qwen3Config& c) {
  for (std::int64_t l = 0; l < c.num_hidden_layers; ++l)
    if (!c.moe || !c.moe->sparse_layer(l)) return true;
  return false;
}
bool has_moe(const Qwen3Config& c) {
  for (std::int64_t l = 0; c.moe && l < c.num_hidden_layers; ++l)
    if (c.moe->sparse_layer(l)) return true;
  return false;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

/// The first split rule `n` devices break for `c` (tp.ranks, tp.rank and tp.gpus aside), if any.
std::optional<Violation> violation(const Qwen3Config& c, std::int64_t n) {
  auto const s = [](std::int64_t v) { return std::to_string(v); };
  if (c.num_attention_heads % n != 0)
    return Violation{kRuleQHeads, "num_attention_heads " + s(c.num_attention_heads) + " is not a multiple of " + s(n)};
  auto const kv = c.num_key_value_heads;
  if (kv % n != 0 && n % kv != 0)
    return Violation{kRuleKvHeads,
                     "num_key_value_heads " + s(kv) + " and " + s(n) + " devices: neither divides the other"};
  if (has_dense_mlp(c) && (c.intermediate_size % n != 0 || (c.intermediate_size / n) % 8 != 0))
    return Violation{kRuleIntermediate, "intermediate_size " + s(c.intermediate_size) + " over " + s(n) +
                                            " devices is not a whole multiple of 8 each"};
  if (has_moe(c) && c.moe->num_experts % n != 0)
    return Violation{kRuleExperts, "num_experts " + s(c.moe->num_experts) + " is not a multiple of " + s(n)};
  if ((n - 1) * ceil_div(c.vocab_size, n) >= c.vocab_size)
    return Violation{kRuleVocab, "vocab_size " + s(c.vocab_size) + " in rows of " + s(ceil_div(c.vocab_size, n)) +
                                     " leaves the last of " + s(n) + " devices none"};
  return std::nullopt;
}

/// "1, 2, 4, 8": the device counts up to `gpus` that split `c`, for messages.
std::string choices(const Qwen3Config& c, int gpus) {
  std::string out;
  for (std::int64_t n = 1; n <= gpus; ++n)
    if (!violation(c, n)) out += (out.empty() ? "" : ", ") + std::to_string(n);
  return out.empty() ? "none" : out;
}

std::string layer_prefix(std::int64_t layer) { return "layers." + std::to_string(layer) + "."; }

std::string option_text(std::int64_t ranks) { return "--tensor-parallel " + std::to_string(ranks); }

// The counts a machine-independent error lists: one host's GPUs (issue 49's machine).
constexpr int kHostGpus = 8;
}  // namespace

// ---- the option's rules ----

void check_tensor_parallel(const Qwen3Config& config, std::int64_t ranks) {
  if (ranks < 1) throw LoadError(kRuleRanks, option_text(ranks) + ": expected 1 or more");
  if (auto const v = violation(config, ranks))
    throw LoadError(v->rule, option_text(ranks) + ": " + v->detail + " (counts of up to " +
                                 std::to_string(kHostGpus) + " GPUs that split this model: " +
                                 choices(config, kHostGpus) + ")");
}

void check_tensor_parallel_gpus(const Qwen3Config& config, std::int64_t ranks, int gpus_present) {
  if (ranks > gpus_present)
    throw LoadError(kRuleGpus, option_text(ranks) + ": " + std::to_string(gpus_present) + " GPU" +
                                   (gpus_present == 1 ? "" : "s") + " present (counts that split this model here: " +
                                   choices(config, gpus_present) + ")");
}

// ---- ShardPlan ----

ShardPlan::ShardPlan(const Qwen3WeightManifest& manifest, int ranks, int rank, int gpus_present)
    : config_(manifest.config()), dtype_(manifest.dtype()), ranks_(ranks), rank_(rank) {
  std::string const n = option_text(ranks);
  if (ranks < 1) throw LoadError(kRuleRanks, n + ": expected 1 or more");
  if (rank < 0 || rank >= ranks)
    throw LoadError(kRuleRank, n + ": rank " + std::to_string(rank) + " is outside 0 .. " + std::to_string(ranks - 1));
  check_tensor_parallel_gpus(config_, ranks, gpus_present);
  if (auto const v = violation(config_, ranks))
    throw LoadError(v->rule, n + ": " + v->detail + " (counts that split this model on the " +
                                 std::to_string(gpus_present) + " GPUs present: " + choices(config_, gpus_present) +
                                 ")");
  q_heads_ = config_.num_attention_heads / ranks;
  bool const split_kv = config_.num_key_value_heads % ranks == 0;
  kv_heads_ = split_kv ? config_.num_key_value_heads / ranks : 1;
  kv_replicas_ = split_kv ? 1 : ranks / config_.num_key_value_heads;
  inter_ = config_.intermediate_size / ranks;
  experts_ = config_.moe ? config_.moe->num_experts / ranks : 0;
  vocab_rows_ = ceil_div(config_.vocab_size, ranks);

  auto const& names = manifest.layers();
  add_vocab("model.embed_tokens.weight", "embed");
  for (std::size_t l = 0; l < names.size(); ++l) add_layer(names[l], static_cast<std::int64_t>(l));
  add_replicated("model.norm.weight", "final_norm", {config_.hidden_size});
  if (!config_.tie_word_embeddings) add_vocab("lm_head.weight", "lm_head");
}

std::int64_t ShardPlan::kv_head_begin() const noexcept {
  return kv_replicas_ == 1 ? kv_heads_ * rank_ : rank_ / kv_replicas_;
}
std::int64_t ShardPlan::vocab_begin() const noexcept { return std::min(config_.vocab_size, vocab_rows_ * rank_); }
std::int64_t ShardPlan::vocab_end() const noexcept { return std::min(config_.vocab_size, vocab_rows_ * (rank_ + 1)); }

const ShardBuffer* ShardPlan::find_buffer(std::string_view name) const noexcept {
  for (ShardBuffer const& b : buffers_)
    if (b.name == name) return &b;
  return nullptr;
}

std::uint64_t ShardPlan::total_bytes() const noexcept {
  std::uint64_t total = 0;
  for (ShardBuffer const& b : buffers_) total += b.bytes;
  return total;
}

void ShardPlan::add_buffer(std::string name, std::vector<std::int64_t> shape) {
  auto const bytes = tensor_bytes(shape, dtype_);
  buffers_.push_back({std::move(name), std::move(shape), bytes, 0});
}

void ShardPlan::add_shard(std::string tensor, TensorSlice slice, std::string buffer, std::uint64_t dst_offset,
                          std::uint64_t block_rows, std::uint64_t pitch_rows, bool owner) {
  auto const bytes = slice_bytes(slice, dtype_);
  auto const row_bytes = bytes / static_cast<std::uint64_t>(slice.rows_count());
  // block_rows 0: the slice lands as one contiguous run.
  auto const block = block_rows == 0 ? bytes : block_rows * row_bytes;
  auto const pitch = block_rows == 0 ? bytes : pitch_rows * row_bytes;
  for (ShardBuffer& b : buffers_)
    if (b.name == buffer) b.filled_bytes += bytes;
  shards_.push_back({std::move(tensor), std::move(slice), std::move(buffer), dst_offset, block, pitch, bytes, owner});
}

void ShardPlan::add_replicated(const std::string& tensor, const std::string& buffer, std::vector<std::int64_t> shape) {
  auto slice = whole_slice(shape);
  add_buffer(buffer, std::move(shape));
  add_shard(tensor, std::move(slice), buffer, 0, 0, 0, rank_ == 0);
}

void ShardPlan::add_vocab(const std::string& tensor, const std::string& buffer) {
  add_buffer(buffer, {vocab_rows_, config_.hidden_size});
  add_shard(tensor, {{{vocab_begin(), vocab_end()}}, 0, config_.hidden_size}, buffer, 0, 0, 0, true);
}

void ShardPlan::add_attention(const Qwen3LayerTensors& t, const std::string& p) {
  auto const d = config_.head_dim, c = config_.hidden_size;
  auto const q_rows = q_heads_ * d, kv_rows = kv_heads_ * d;
  add_buffer(p + "qkv", {q_rows + 2 * kv_rows, c});
  auto const row = tensor_bytes(std::vector<std::int64_t>{c}, dtype_);
  auto const q0 = q_head_begin() * d, kv0 = kv_head_begin() * d;
  bool const kv_owner = rank_ % kv_replicas_ == 0;  // the first rank holding a replicated kv head
  add_shard(t.q_proj, {{{q0, q0 + q_rows}}, 0, c}, p + "qkv", 0, 0, 0, true);
  add_shard(t.k_proj, {{{kv0, kv0 + kv_rows}}, 0, c}, p + "qkv", q_rows * row, 0, 0, kv_owner);
  add_shard(t.v_proj, {{{kv0, kv0 + kv_rows}}, 0, c}, p + "qkv", (q_rows + kv_rows) * row, 0, 0, kv_owner);
  add_replicated(t.q_norm, p + "q_norm", {d});
  add_replicated(t.k_norm, p + "k_norm", {d});
  // o_proj [hidden, heads * head_dim]: the rank's heads are its input columns; partial sums follow.
  add_buffer(p + "o", {c, q_rows});
  add_shard(t.o_proj, {{{0, c}}, q0, q0 + q_rows}, p + "o", 0, 0, 0, true);
}

void ShardPlan::add_experts(const Qwen3LayerTensors& t, const std::string& p) {
  auto const c = config_.hidden_size, f = config_.moe->moe_intermediate_size, e = config_.moe->num_experts;
  add_replicated(t.router, p + "router", {e, c});
  add_buffer(p + "experts_gate_up", {experts_, 2 * f, c});
  add_buffer(p + "experts_down", {experts_, c, f});
  auto const row = tensor_bytes(std::vector<std::int64_t>{c}, dtype_);
  auto const expert_down = tensor_bytes(std::vector<std::int64_t>{c, f}, dtype_);
  for (std::int64_t j = 0; j < experts_; ++j) {
    auto const& x = t.experts[static_cast<std::size_t>(expert_begin() + j)];
    std::uint64_t const at = static_cast<std::uint64_t>(j) * 2 * static_cast<std::uint64_t>(f) * row;
    add_shard(x.gate_proj, whole_slice(std::vector<std::int64_t>{f, c}), p + "experts_gate_up", at, 8, 16, true);
    add_shard(x.up_proj, whole_slice(std::vector<std::int64_t>{f, c}), p + "experts_gate_up", at + 8 * row, 8, 16,
              true);
    add_shard(x.down_proj, whole_slice(std::vector<std::int64_t>{c, f}), p + "experts_down",
              static_cast<std::uint64_t>(j) * expert_down, 0, 0, true);
  }
}

void ShardPlan::add_layer(const Qwen3LayerTensors& t, std::int64_t layer) {
  std::string const p = layer_prefix(layer);
  add_replicated(t.input_layernorm, p + "input_norm", {config_.hidden_size});
  add_attention(t, p);
  add_replicated(t.post_attention_layernorm, p + "post_norm", {config_.hidden_size});
  if (!t.experts.empty()) return add_experts(t, p);
  auto const c = config_.hidden_size, f0 = intermediate_begin();
  auto const row = tensor_bytes(std::vector<std::int64_t>{c}, dtype_);
  // The rank's gate and up rows, interleaved 8 and 8 as pack_gate_up does for the whole weight.
  add_buffer(p + "gate_up", {2 * inter_, c});
  add_shard(t.gate_proj, {{{f0, f0 + inter_}}, 0, c}, p + "gate_up", 0, 8, 16, true);
  add_shard(t.up_proj, {{{f0, f0 + inter_}}, 0, c}, p + "gate_up", 8 * row, 8, 16, true);
  add_buffer(p + "down", {c, inter_});
  add_shard(t.down_proj, {{{0, c}}, f0, f0 + inter_}, p + "down", 0, 0, 0, true);
}

// ---- the decode step ----

DecodeStepTraffic decode_step_traffic(const ShardPlan& plan, std::int64_t batch) {
  if (batch < 1) throw LoadError(kRuleBatch, "batch " + std::to_string(batch));
  Qwen3Config const& c = plan.config();
  double const elem = dtype_bits(plan.dtype()) / 8.0;
  double const hidden_row = elem * static_cast<double>(c.hidden_size);
  // Each of a rank's experts is chosen by some token of the batch with this probability (uniform routing).
  double const chosen =
      c.moe ? 1 - std::pow(1 - double(c.moe->num_experts_per_tok) / double(c.moe->num_experts), double(batch)) : 0;
  DecodeStepTraffic t;
  for (ShardBuffer const& b : plan.buffers()) {
    if (b.name == "embed") {
      t.weight_bytes += static_cast<double>(batch) * hidden_row;                         // the tokens' rows, gathered
      if (c.tie_word_embeddings) t.weight_bytes += static_cast<double>(b.filled_bytes);  // and as the LM head
    } else if (b.name.ends_with("experts_gate_up") || b.name.ends_with("experts_down")) {
      t.weight_bytes += chosen * static_cast<double>(b.filled_bytes);
    } else {
      t.weight_bytes += static_cast<double>(b.filled_bytes);
    }
  }
  if (plan.ranks() == 1) return t;
  auto const n = static_cast<double>(plan.ranks());
  t.allreduces = 2 * c.num_hidden_layers + 1;
  t.allreduce_bytes = static_cast<std::uint64_t>(batch * c.hidden_size) * 2;  // bf16 activations
  t.allreduce_wire_bytes = static_cast<double>(t.allreduces * t.allreduce_bytes) * 2 * (n - 1) / n;
  t.gather_wire_bytes = static_cast<std::uint64_t>((plan.ranks() - 1) * batch * plan.vocab_rows()) * 2;
  return t;
}

double decode_step_seconds_bound(const DecodeStepTraffic& t, double memory_bytes_per_s, double link_bytes_per_s,
                                 double collective_latency_s) {
  double const collectives = t.allreduces == 0 ? 0 : static_cast<double>(t.allreduces + 1);  // + the gather
  double const wire = t.allreduce_wire_bytes + static_cast<double>(t.gather_wire_bytes);
  return t.weight_bytes / memory_bytes_per_s + (wire > 0 ? wire / link_bytes_per_s : 0) +
         collectives * collective_latency_s;
}

std::vector<std::byte> read_rank_buffer(const Checkpoint& checkpoint, const ShardPlan& plan,
                                        const ShardBuffer& buffer) {
  std::vector<std::byte> out(buffer.bytes, std::byte{0});  // a vocabulary buffer's padding rows stay zeros
  std::vector<std::byte> slice;
  for (TensorShard const& s : plan.shards()) {
    if (s.buffer != buffer.name) continue;
    slice.resize(s.bytes);
    read_slice(checkpoint, checkpoint.at(s.tensor), s.slice, slice);
    for (std::uint64_t b = 0; b * s.block < s.bytes; ++b)
      std::memcpy(out.data() + s.dst_offset + b * s.dst_pitch, slice.data() + b * s.block,
                  std::min(s.block, s.bytes - b * s.block));
  }
  return out;
}

}  // namespace cute_cpp::models
