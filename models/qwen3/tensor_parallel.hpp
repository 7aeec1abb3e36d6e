// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/qwen3/tensor_parallel.hpp: how a Qwen3 checkpoint (dense or MoE) splits over N devices
// (`--tensor-parallel N`, issue 49): which rows and columns of each checkpoint tensor rank r holds,
// and where they go in the rank's device buffers, in the packed layouts models/qwen3's kernels read
// (fused QKV, gate-up interleaved in blocks of 8 rows; weights.hpp), so that each rank's kernels are
// the single-device ones on narrower shapes. The arithmetic a benchmark's limit needs (bytes a rank
// reads per decode step, the all-reduces between ranks) is here too. tensor_parallel.md says why.
#include <cstddef>      // std::byte
#include <cstdint>      // std::int64_t, std::uint64_t
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/tensor_slice.hpp"  // TensorSlice
#include "models/qwen3/weights.hpp"        // Qwen3WeightManifest

namespace cute_cpp::models {

// ---- the option's rules ----

/// The rules `--tensor-parallel ranks` must meet for `config` on any machine: ShardPlan's, tp.rank and
/// tp.gpus aside. cute-cpp-qwen3 checks them before any GPU work; the error lists the counts of up to 8
/// GPUs that would do.
///   check_tensor_parallel(qwen3_8b, 3) -> cute-cpp [tp.q-heads]: --tensor-parallel 3: num_attention_heads 32 is
///     not a multiple of 3 (counts of up to 8 GPUs that split this model: 1, 2, 4, 8)
/// @pre ranks >= 1 [tp.ranks]; ranks divides num_attention_heads [tp.q-heads]; ranks divides
///      num_key_value_heads or they divide ranks [tp.kv-heads]; [tp.intermediate]; [tp.experts]; [tp.vocab]
///      (ShardPlan's constructor says what each requires).
void check_tensor_parallel(const Qwen3Config& config, std::int64_t ranks);
/// @pre ranks <= gpus_present [tp.gpus]: the error lists the counts that split `config` on them.
void check_tensor_parallel_gpus(const Qwen3Config& config, std::int64_t ranks, int gpus_present);

// ---- ShardPlan ----

/// One rank's part of one checkpoint tensor: the slice it reads (read_slice), and where the slice's
/// compact bytes go in the rank's device buffer: cut into blocks of `block` bytes, block i at byte
/// dst_offset + i * dst_pitch (PackPiece's placement; dst_pitch == block: one contiguous run).
struct TensorShard {
  std::string tensor;  ///< the checkpoint's name
  TensorSlice slice;   ///< of the tensor's matrix view (tensor_slice.hpp)
  std::string buffer;  ///< the rank's device buffer: "embed", "layers.3.qkv", ... (ShardBuffer::name)
  std::uint64_t dst_offset = 0, block = 0, dst_pitch = 0;
  std::uint64_t bytes = 0;  ///< slice_bytes(slice, dtype)
  /// False for a replica: bytes another rank also holds and owns (norms, the router, a kv head
  /// shared by several ranks). Each byte of the checkpoint has exactly one owner over the ranks.
  bool owner = true;
};

/// One device buffer of a rank, as models/qwen3's Weights names its members (LayerWeights' fields
/// prefixed "layers.<i>."), with its shape in the checkpoint's dtype. Vocabulary buffers are padded
/// to the same row count on every rank; the rows past the rank's vocabulary hold no shard (zeros).
struct ShardBuffer {
  std::string name;
  std::vector<std::int64_t> shape;
  std::uint64_t bytes = 0;         ///< the whole buffer
  std::uint64_t filled_bytes = 0;  ///< what the shards write: bytes, less a vocabulary buffer's padding
};

/// Rank `rank` of `ranks`'s part of a Qwen3 checkpoint.
///   ShardPlan p(Qwen3WeightManifest(qwen3_8b), /*ranks=*/4, /*rank=*/1, /*gpus_present=*/8);
///   p.q_heads() -> 8 (heads 8..15)   p.kv_heads() -> 2 (heads 2..3)   p.intermediate() -> 3072
///   p.find_buffer("layers.0.qkv")->shape  ->  [(8 + 2 * 2) * 128, 4096]
/// Splits (Megatron-LM's): the fused QKV by heads (q heads split by N; kv heads split when N divides
/// them, else each rank keeps the one kv head its q heads use, kv head = q head / (heads / kv_heads));
/// gate-up by intermediate columns, each rank's gate and up rows interleaved as pack_gate_up does;
/// o_proj and down_proj by input columns (each rank's partial sums then all-reduced); embedding and
/// LM head by vocabulary rows, ceil(vocab / N) per rank (the last may hold fewer); MoE experts in
/// contiguous blocks of num_experts / N (expert parallel); norms and the router replicated.
class ShardPlan {
 public:
  /// @pre ranks >= 1 [tp.ranks]; 0 <= rank < ranks [tp.rank]; ranks <= gpus_present [tp.gpus];
  ///      ranks divides num_attention_heads [tp.q-heads]; ranks divides num_key_value_heads or they
  ///      divide ranks [tp.kv-heads]; with a dense MLP, ranks divides intermediate_size into widths
  ///      that are multiples of 8 (the gate-up interleave) [tp.intermediate]; with MoE layers, ranks
  ///      divides num_experts [tp.experts]; every rank holds some vocabulary [tp.vocab].
  ShardPlan(const Qwen3WeightManifest& manifest, int ranks, int rank, int gpus_present);

  [[nodiscard]] int ranks() const noexcept { return ranks_; }
  [[nodiscard]] int rank() const noexcept { return rank_; }
  [[nodiscard]] const Qwen3Config& config() const noexcept { return config_; }
  [[nodiscard]] Dtype dtype() const noexcept { return dtype_; }

  /// Attention heads: q heads [q_head_begin, + q_heads), kv heads [kv_head_begin, + kv_heads); each
  /// kv head is held by kv_replicas() ranks (1: split, more: replicated).
  [[nodiscard]] std::int64_t q_heads() const noexcept { return q_heads_; }
  [[nodiscard]] std::int64_t q_head_begin() const noexcept { return q_heads_ * rank_; }
  [[nodiscard]] std::int64_t kv_heads() const noexcept { return kv_heads_; }
  [[nodiscard]] std::int64_t kv_head_begin() const noexcept;
  [[nodiscard]] std::int64_t kv_replicas() const noexcept { return kv_replicas_; }
  /// The dense MLP's columns [intermediate_begin, + intermediate).
  [[nodiscard]] std::int64_t intermediate() const noexcept { return inter_; }
  [[nodiscard]] std::int64_t intermediate_begin() const noexcept { return inter_ * rank_; }
  /// Experts [expert_begin, + experts) (0 experts without MoE).
  [[nodiscard]] std::int64_t experts() const noexcept { return experts_; }
  [[nodiscard]] std::int64_t expert_begin() const noexcept { return experts_ * rank_; }
  /// Vocabulary rows [vocab_begin, vocab_end) in buffers of vocab_rows() rows (the same on every rank).
  [[nodiscard]] std::int64_t vocab_rows() const noexcept { return vocab_rows_; }
  [[nodiscard]] std::int64_t vocab_begin() const noexcept;
  [[nodiscard]] std::int64_t vocab_end() const noexcept;

  /// Every shard this rank loads, in the manifest's tensor order.
  [[nodiscard]] const std::vector<TensorShard>& shards() const noexcept { return shards_; }
  /// This rank's device buffers, each written by the shards that name it.
  [[nodiscard]] const std::vector<ShardBuffer>& buffers() const noexcept { return buffers_; }
  [[nodiscard]] const ShardBuffer* find_buffer(std::string_view name) const noexcept;
  /// Bytes of the rank's buffers (padding included): its device memory for weights.
  [[nodiscard]] std::uint64_t total_bytes() const noexcept;

 private:
  void add_layer(const Qwen3LayerTensors& names, std::int64_t layer);
  void add_attention(const Qwen3LayerTensors& names, const std::string& prefix);
  void add_experts(const Qwen3LayerTensors& names, const std::string& prefix);
  void add_vocab(const std::string& tensor, const std::string& buffer);
  void add_replicated(const std::string& tensor, const std::string& buffer, std::vector<std::int64_t> shape);
  void add_buffer(std::string name, std::vector<std::int64_t> shape);
  void add_shard(std::string tensor, TensorSlice slice, std::string buffer, std::uint64_t dst_offset,
                 std::uint64_t block_rows, std::uint64_t pitch_rows, bool owner);

  Qwen3Config config_;
  Dtype dtype_{};
  int ranks_ = 1, rank_ = 0;
  std::int64_t q_heads_ = 0, kv_heads_ = 0, kv_replicas_ = 1, inter_ = 0, experts_ = 0, vocab_rows_ = 0;
  std::vector<TensorShard> shards_;
  std::vector<ShardBuffer> buffers_;
};

/// `buffer` of `plan`'s rank filled from `checkpoint`: read_slice of each of its shards (only the
/// slice's bytes are read), the slice's blocks placed at dst_offset + i dst_pitch; a vocabulary
/// buffer's padding rows are zeros. One buffer at a time: the rank's loader copies it to the device,
/// so that no host or device holds a whole tensor another rank shares.
/// @pre checkpoint validated against the plan's manifest; buffer is one of plan.buffers().
[[nodiscard]] std::vector<std::byte> read_rank_buffer(const Checkpoint& checkpoint, const ShardPlan& plan,
                                                      const ShardBuffer& buffer);

// ---- what a decode step moves ----

/// One rank's traffic in a decode step of `batch` tokens (one per sequence).
struct DecodeStepTraffic {
  /// Weight bytes the rank reads: its shards of every matrix and the norms, the LM head's vocabulary
  /// rows, the embedding's rows of the batch's tokens (at most batch), and in a MoE layer the router
  /// and the expected number of its experts the tokens choose under uniform routing (bench_qwen3.py's
  /// arithmetic; for ranks == 1 the same figure).
  double weight_bytes = 0;
  /// All-reduces a step (none for one rank): after o_proj and after down_proj (or the experts'
  /// combine) in every layer, and one after the vocabulary-split embedding lookup; each sums a
  /// [batch, hidden] bf16 activation of allreduce_bytes.
  std::int64_t allreduces = 0;
  std::uint64_t allreduce_bytes = 0;
  /// Bytes each rank sends (and receives) for them in a ring all-reduce: 2 (N - 1) / N of each.
  double allreduce_wire_bytes = 0;
  /// The logits all-gather: each rank receives the others' [batch, vocab_rows] bf16 logits.
  std::uint64_t gather_wire_bytes = 0;
};

/// @pre batch >= 1 [tp.batch].
[[nodiscard]] DecodeStepTraffic decode_step_traffic(const ShardPlan& plan, std::int64_t batch);

/// A lower bound on one decode step's time: the weights at `memory_bytes_per_s`, plus the all-reduce
/// and gather traffic at `link_bytes_per_s`, plus `collective_latency_s` per collective (at batch 1 a
/// 2 x hidden-byte all-reduce is latency, not bandwidth: the term that decides small models' scaling).
[[nodiscard]] double decode_step_seconds_bound(const DecodeStepTraffic& traffic, double memory_bytes_per_s,
                                               double link_bytes_per_s, double collective_latency_s);

}  // namespace cute_cpp::models
