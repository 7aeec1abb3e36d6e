// SPDX-License-Identifier: Apache-2.0
// models/qwen3/rank_weights_sm90.cu: one tensor-parallel rank's weights on its device (device_weights.hpp),
// at the shapes of its ShardPlan (tensor_parallel.hpp): from a checkpoint, each buffer assembled from
// its shards' slices (read_rank_buffer: no tensor read whole unless the rank holds it whole), or
// filled from a seed with exactly the values random_weights gives the whole model, cut to the rank's
// rows and columns, so that N ranks' model is the one-device model split.
#include "models/qwen3/device_weights.hpp"

#include "models/common/device_upload.hpp"
#include "models/common/error.hpp"  // LoadError
#include "models/common/random_weights.cuh"
#include "models/qwen3/tensor_parallel.hpp"
#include "models/qwen3/vocab_shards.hpp"  // padded_vocab_rows

#include <cute_cpp/host/error.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cute_cpp::models {

namespace {

using host::cuda_check;

constexpr const char* kRuleLmHead =
    "cute-cpp [tp.lm-head]: a tensor-parallel model splits a tied checkpoint's embedding as its LM head; a tied "
    "checkpoint that also stores a different lm_head.weight is not split";

/// The member of `w` that ShardPlan calls `name` ("embed", "layers.3.qkv", ...).
DeviceBuffer<bf16>& member(Weights& w, const std::string& name) {
  if (name == "embed") return w.embed;
  if (name == "final_norm") return w.final_norm;
  if (name == "lm_head") return w.lm_head;
  std::size_t const dot = name.find('.', 7);
  if (name.rfind("layers.", 0) == 0 && dot != std::string::npos) {
    LayerWeights& l = w.layers.at(std::stoul(name.substr(7, dot - 7)));
    std::string const field = name.substr(dot + 1);
    DeviceBuffer<bf16>* const fields[] = {&l.input_norm, &l.qkv,    &l.q_norm, &l.k_norm,          &l.o,
                                          &l.post_norm,  &l.gate_up, &l.down,  &l.router, &l.experts_gate_up,
                                          &l.experts_down};
    char const* const names[] = {"input_norm", "qkv",  "q_norm", "k_norm", "o", "post_norm",
                                 "gate_up",    "down", "router", "experts_gate_up", "experts_down"};
    for (std::size_t i = 0; i < std::size(names); ++i)
      if (field == names[i]) return *fields[i];
  }
  throw std::logic_error("cute-cpp: ShardPlan buffer " + name + " has no member in Weights");
}

/// Fills the rank's pieces of one whole tensor of random_weights: the same (seed, tensor) hash, so
/// the values are the whole tensor's at the pieces' places.
struct BlockFiller {
  std::uint64_t seed = 0;
  std::uint64_t tensor = 0;  ///< random_weights' number of the tensor being cut
  static constexpr float stddev = 0.02f;
  /// rows [row0, + rows) x columns [col0, + cols) of a tensor of full_cols columns, at out.
  void block(bf16* out, std::int64_t rows, std::int64_t cols, std::int64_t full_cols, std::int64_t row0,
             std::int64_t col0, float mean) const {
    fill_random_bf16_block(out, std::uint64_t(rows), std::uint64_t(cols), std::uint64_t(full_cols),
                           std::uint64_t(row0), std::uint64_t(col0), seed, tensor, mean, stddev, nullptr);
  }
  /// A new buffer holding rows [row0, + rows) of a [*, cols] tensor; the next tensor's number after.
  DeviceBuffer<bf16> rows(std::int64_t rows, std::int64_t cols, std::int64_t row0, float mean = 0.0f) {
    DeviceBuffer<bf16> d(std::size_t(rows * cols));
    block(d.data(), rows, cols, cols, row0, 0, mean);
    ++tensor;
    return d;
  }
  /// A new buffer holding columns [col0, + cols) of a [rows, full_cols] tensor.
  DeviceBuffer<bf16> cols(std::int64_t rows, std::int64_t cols, std::int64_t full_cols, std::int64_t col0) {
    DeviceBuffer<bf16> d(std::size_t(rows * cols));
    block(d.data(), rows, cols, full_cols, 0, col0, 0.0f);
    ++tensor;
    return d;
  }
  /// The vocabulary rows [begin, end) of a [vocab, hidden] tensor in a buffer of padded_vocab_rows
  /// rows (zeros past end).
  DeviceBuffer<bf16> vocab(const ShardPlan& p) {
    std::int64_t const c = p.config().hidden_size;
    DeviceBuffer<bf16> d(std::size_t(padded_vocab_rows(p.vocab_rows()) * c));
    cuda_check(cudaMemsetAsync(d.data(), 0, d.bytes(), nullptr), "cudaMemsetAsync(vocabulary padding)");
    block(d.data(), p.vocab_end() - p.vocab_begin(), c, c, p.vocab_begin(), 0, 0.0f);
    ++tensor;
    return d;
  }
};

/// random_layer's tensors at the rank's shapes, numbered as random_layer numbers the whole ones.
LayerWeights random_rank_layer(BlockFiller& f, const ShardPlan& p, bool sparse) {
  Qwen3Config const& c = p.config();
  std::int64_t const hidden = c.hidden_size, d = c.head_dim, heads = c.num_attention_heads;
  std::int64_t const kv = c.num_key_value_heads, q_rows = p.q_heads() * d, kv_rows = p.kv_heads() * d;
  LayerWeights l;
  l.input_norm = f.rows(1, hidden, 0, 1.0f);
  // The fused QKV [q | k | v] of the whole model, [(heads + 2 kv) d, hidden]: the rank's q, k and v rows.
  l.qkv = DeviceBuffer<bf16>(std::size_t((q_rows + 2 * kv_rows) * hidden));
  f.block(l.qkv.data(), q_rows, hidden, hidden, p.q_head_begin() * d, 0, 0.0f);
  f.block(l.qkv.data() + q_rows * hidden, kv_rows, hidden, hidden, (heads + p.kv_head_begin()) * d, 0, 0.0f);
  f.block(l.qkv.data() + (q_rows + kv_rows) * hidden, kv_rows, hidden, hidden, (heads + kv + p.kv_head_begin()) * d,
          0, 0.0f);
  ++f.tensor;
  l.q_norm = f.rows(1, d, 0, 1.0f);
  l.k_norm = f.rows(1, d, 0, 1.0f);
  l.o = f.cols(hidden, q_rows, heads * d, p.q_head_begin() * d);
  l.post_norm = f.rows(1, hidden, 0, 1.0f);
  if (sparse) {
    std::int64_t const experts = c.moe->num_experts, width = c.moe->moe_intermediate_size;
    l.router = f.rows(experts, hidden, 0);
    // The experts one after another: the rank's block of them is a block of rows.
    l.experts_gate_up = f.rows(p.experts() * 2 * width, hidden, p.expert_begin() * 2 * width);
    l.experts_down = f.rows(p.experts() * hidden, width, p.expert_begin() * hidden);
  } else {
    // The rank's gate and up rows, interleaved 8 and 8, are a block of the whole interleaved weight's rows.
    l.gate_up = f.rows(2 * p.intermediate(), hidden, 2 * p.intermediate_begin());
    l.down = f.cols(hidden, p.intermediate(), c.intermediate_size, p.intermediate_begin());
  }
  return l;
}

}  // namespace

Weights checkpoint_weights(const std::filesystem::path& folder, const Qwen3WeightManifest& manifest,
                           const ShardPlan& plan) {
  Checkpoint const checkpoint = Checkpoint::open(folder);
  manifest.validate(checkpoint);
  if (TensorInfo const& out = manifest.output_weight(checkpoint);
      manifest.config().tie_word_embeddings && out.name != "model.embed_tokens.weight")
    throw LoadError(kRuleLmHead, folder.string() + ": tie_word_embeddings is true, and " + out.name +
                                     " is not the embedding");
  Uploader uploader;
  Weights w;
  w.layers.resize(manifest.layers().size());
  for (ShardBuffer const& b : plan.buffers()) {
    // One buffer of the rank at a time on the host: its shards' slices, placed (tensor_parallel.hpp).
    std::vector<std::byte> bytes = read_rank_buffer(checkpoint, plan, b);
    if (b.name == "embed" || b.name == "lm_head")  // zero rows to padded_vocab_rows (vocab_shards.hpp)
      bytes.resize(std::size_t(padded_vocab_rows(plan.vocab_rows()) * manifest.config().hidden_size) * sizeof(bf16),
                   std::byte{0});
    PackPiece const whole[] = {{std::span<const std::byte>(bytes), 0, bytes.size(), bytes.size()}};
    member(w, b.name) = uploader.upload(bytes.size(), whole);
  }
  uploader.finish();
  return w;
}

Weights random_weights(const Qwen3WeightManifest& manifest, std::uint64_t seed, const ShardPlan& plan) {
  Qwen3Config const& c = manifest.config();
  BlockFiller f{seed, 0};
  Weights w;
  w.embed = f.vocab(plan);
  w.final_norm = f.rows(1, c.hidden_size, 0, 1.0f);
  if (!c.tie_word_embeddings) w.lm_head = f.vocab(plan);
  for (Qwen3LayerTensors const& names : manifest.layers())
    w.layers.push_back(random_rank_layer(f, plan, !names.experts.empty()));
  // NOTE: as random_weights: the fills run on the legacy default stream.
  cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize(random weights)");
  return w;
}

}  // namespace cute_cpp::models
