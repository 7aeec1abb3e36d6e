// SPDX-License-Identifier: Apache-2.0
// models/common/manifest.cpp: the expected-tensor list and its checks against a checkpoint,
// shared by the model families' weight manifests.
#include "models/common/manifest.hpp"

#include <algorithm>  // std::sort, std::lower_bound
#include <numeric>    // std::iota

#include "models/common/config_reader.hpp"  // kRuleConfigValue
#include "models/common/error.hpp"          // LoadError, in_quotes

namespace cute_cpp::models {

// ---- TensorList ----

const std::string& TensorList::add(ExpectedTensor t) {
  tensors_.push_back(std::move(t));
  return tensors_.back().name;
}

void TensorList::index() {
  total_bytes_ = 0;
  for (auto const& t : tensors_) total_bytes_ += tensor_bytes(t.shape, t.dtype);
  by_name_.resize(tensors_.size());
  std::iota(by_name_.begin(), by_name_.end(), std::size_t{0});
  std::sort(by_name_.begin(), by_name_.end(),
            [&](std::size_t a, std::size_t b) { return tensors_[a].name < tensors_[b].name; });
}

const ExpectedTensor* TensorList::find(std::string_view name) const noexcept {
  auto const it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                                   [&](std::size_t i, std::string_view n) { return tensors_[i].name < n; });
  return it != by_name_.end() && tensors_[*it].name == name ? &tensors_[*it] : nullptr;
}

void TensorList::check_present(const Checkpoint& checkpoint, const ManifestRules& rules,
                               std::string_view torch_dtype) const {
  for (auto const& e : tensors_) {
    auto const* t = checkpoint.find(e.name);
    if (t == nullptr)
      throw LoadError(rules.missing, checkpoint.folder().string() + ": tensor " + in_quotes(e.name) + " " +
                                         shape_text(e.shape) + " " + std::string(dtype_name(e.dtype)) + " is not in " +
                                         looked_in(checkpoint));
    check_tensor(checkpoint, *t, e, rules, torch_dtype);
  }
}

void check_tensor(const Checkpoint& checkpoint, const TensorInfo& t, const ExpectedTensor& expected,
                  const ManifestRules& rules, std::string_view torch_dtype) {
  if (t.shape != expected.shape)
    throw LoadError(rules.shape, file_of(checkpoint, t) + ": tensor " + in_quotes(t.name) + " has shape " +
                                     shape_text(t.shape) + ", expected " + shape_text(expected.shape) + " = " +
                                     std::string(expected.dims));
  if (t.dtype == expected.dtype || (expected.also_dtype && t.dtype == *expected.also_dtype)) return;
  std::string want(dtype_name(expected.dtype));
  if (expected.also_dtype) want += " or " + std::string(dtype_name(*expected.also_dtype));
  std::string const why =
      expected.dtype_note.empty() ? "torch_dtype " + in_quotes(torch_dtype) : std::string(expected.dtype_note);
  throw LoadError(rules.dtype, file_of(checkpoint, t) + ": tensor " + in_quotes(t.name) + " is " +
                                   std::string(dtype_name(t.dtype)) + ", expected " + want + " (" + why + ")");
}

// ---- helpers ----

std::string shape_text(std::span<const std::int64_t> shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::uint64_t tensor_bytes(std::span<const std::int64_t> shape, Dtype dtype) {
  std::uint64_t n = 1;
  for (auto const e : shape) n *= static_cast<std::uint64_t>(e);
  return n * static_cast<std::uint64_t>(dtype_bits(dtype)) / 8;
}

std::string file_of(const Checkpoint& checkpoint, const TensorInfo& t) {
  for (auto const& shard : checkpoint.shards())
    if (shard.find(t.name) == &t) return shard.path().filename().string();
  return checkpoint.folder().string();
}

std::string looked_in(const Checkpoint& checkpoint) {
  if (checkpoint.shards().size() == 1 && checkpoint.shards()[0].path().filename() == "model.safetensors")
    return "model.safetensors";
  return "any of the " + std::to_string(checkpoint.shards().size()) + " shards of model.safetensors.index.json";
}

Dtype dtype_of_torch_dtype(std::string_view torch_dtype) {
  if (torch_dtype == "bfloat16") return Dtype::BF16;
  if (torch_dtype == "float16") return Dtype::F16;
  if (torch_dtype == "float32") return Dtype::F32;
  throw LoadError(kRuleConfigValue, "config.json: \"torch_dtype\" is " + in_quotes(torch_dtype) +
                                        ", expected \"bfloat16\", \"float16\" or \"float32\"");
}

}  // namespace cute_cpp::models
