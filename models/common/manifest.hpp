// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/manifest.hpp: what the model families' weight manifests share: the expected
// tensor (name, shape, dtype), a list of them looked up by name with its bytes, and the checks of
// a checkpoint's tensors against it, reported under each family's own rule ids
// (Qwen3WeightManifest: qwen3.tensor-*, NemotronHWeightManifest: nemotron.tensor-*).
#include <cstdint>      // std::int64_t, std::uint64_t
#include <cstddef>      // std::byte
#include <optional>     // std::optional
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include "models/common/checkpoint.hpp"   // Checkpoint
#include "models/common/safetensors.hpp"  // Dtype, TensorInfo

namespace cute_cpp::models {

// ---- PackPiece ----

/// One source tensor's place in a packed weight: its bytes cut into blocks of `block` bytes, block i
/// written at byte dst_offset + i * dst_pitch of the packed weight (dst_pitch == block: one
/// contiguous copy). The loader copies pieces straight to the device (a 2-D copy per staging
/// chunk) instead of packing on the host first.
struct PackPiece {
  std::span<const std::byte> src;
  std::uint64_t dst_offset = 0;
  std::uint64_t block = 0;
  std::uint64_t dst_pitch = 0;
};

// ---- ExpectedTensor ----

/// One tensor a checkpoint must hold, with the config fields its shape is made of and its dtype.
struct ExpectedTensor {
  std::string name;
  std::vector<std::int64_t> shape;
  std::string_view dims;            ///< e.g. "[intermediate_size, hidden_size]", for messages
  Dtype dtype{};                    ///< the dtype it must have
  std::optional<Dtype> also_dtype;  ///< a second dtype it may have instead
  std::string_view dtype_note;      ///< why that dtype, for messages; empty: the config's torch_dtype
};

/// The rule texts a family's checks report (each a `cute-cpp [rule]: ...` literal).
struct ManifestRules {
  std::string_view missing;  ///< an expected tensor is absent
  std::string_view shape;    ///< an expected tensor has another shape
  std::string_view dtype;    ///< an expected tensor has another dtype
};

// ---- TensorList ----

/// Expected tensors in the order they were added, found by name, with their total bytes.
///   TensorList l;  l.add({"w", {4, 8}, "[a, b]", Dtype::BF16});  l.index();
///   l.find("w")->shape  ->  [4, 8]      l.total_bytes()  ->  64
class TensorList {
 public:
  /// Appends `t`; returns its name. Call index() once every tensor is added.
  const std::string& add(ExpectedTensor t);
  /// Sorts the name index and sums the bytes (each tensor in its dtype).
  void index();

  [[nodiscard]] const std::vector<ExpectedTensor>& tensors() const noexcept { return tensors_; }
  /// The expected tensor called `name`, or nullptr. @pre index() was called after the last add().
  [[nodiscard]] const ExpectedTensor* find(std::string_view name) const noexcept;
  [[nodiscard]] std::uint64_t total_bytes() const noexcept { return total_bytes_; }

  /// Checks that every tensor is in `checkpoint` [rules.missing] with its shape [rules.shape] and
  /// dtype [rules.dtype]; `torch_dtype` is named in messages of tensors without a dtype_note.
  void check_present(const Checkpoint& checkpoint, const ManifestRules& rules, std::string_view torch_dtype) const;

 private:
  std::vector<ExpectedTensor> tensors_;
  std::vector<std::size_t> by_name_;  // indices into tensors_, sorted by name
  std::uint64_t total_bytes_ = 0;
};

/// Checks one present tensor against `expected`: its shape [rules.shape], then its dtype [rules.dtype].
///   cute-cpp [qwen3.tensor-dtype]: model.safetensors: tensor "w" is F16, expected BF16 (torch_dtype "bfloat16")
void check_tensor(const Checkpoint& checkpoint, const TensorInfo& t, const ExpectedTensor& expected,
                  const ManifestRules& rules, std::string_view torch_dtype);

// ---- helpers for messages and sizes ----

/// "[4, 8]".
[[nodiscard]] std::string shape_text(std::span<const std::int64_t> shape);
/// Bytes of a tensor of `shape` in `dtype` (whole bytes: sub-byte dtypes rounded down).
[[nodiscard]] std::uint64_t tensor_bytes(std::span<const std::int64_t> shape, Dtype dtype);
/// The file name of the shard of `checkpoint` that holds `t`.
[[nodiscard]] std::string file_of(const Checkpoint& checkpoint, const TensorInfo& t);
/// Where a missing tensor was looked for: "model.safetensors", or "any of the N shards of ...".
[[nodiscard]] std::string looked_in(const Checkpoint& checkpoint);
/// The safetensors dtype of a config's torch_dtype: BF16, F16 or F32.
/// @pre torch_dtype is "bfloat16", "float16" or "float32" [config.value].
[[nodiscard]] Dtype dtype_of_torch_dtype(std::string_view torch_dtype);

}  // namespace cute_cpp::models
