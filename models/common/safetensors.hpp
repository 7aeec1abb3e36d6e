// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/safetensors.hpp: a reader of the safetensors format (8-byte little-endian header
// length N, N bytes of JSON header, then the data buffer). The file is memory-mapped read-only and
// validated in full before anything is returned: after open() succeeds, every TensorInfo's
// pointer and byte count lie inside the mapping and no two tensors share a byte.
#include <cstddef>      // std::byte, std::size_t
#include <cstdint>      // std::int64_t, std::uint64_t
#include <filesystem>   // std::filesystem::path
#include <optional>     // std::optional
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <utility>      // std::pair
#include <vector>       // std::vector

namespace cute_cpp::models {

// ---- dtypes ----

/// The element types the safetensors format defines (its Rust `Dtype`, same spellings).
enum class Dtype : std::uint8_t {
  BOOL,
  U8,
  I8,
  F8_E5M2,
  F8_E4M3,
  F8_E8M0,
  I16,
  U16,
  F16,
  BF16,
  I32,
  U32,
  F32,
  F64,
  I64,
  U64,
  C64,
  F4,
  F6_E2M3,
  F6_E3M2,
};

/// "BF16" for Dtype::BF16.
[[nodiscard]] std::string_view dtype_name(Dtype dtype) noexcept;
/// Bits per element: 16 for BF16, 4 for F4 (two to a byte), 6 for F6_E2M3.
[[nodiscard]] int dtype_bits(Dtype dtype) noexcept;
/// The dtype spelled `name`, or nullopt.
[[nodiscard]] std::optional<Dtype> parse_dtype(std::string_view name) noexcept;

// ---- SafetensorsFile ----

/// One tensor of a mapped file.
struct TensorInfo {
  std::string name;
  Dtype dtype{};
  std::vector<std::int64_t> shape;  // [] for a scalar; a 0 extent makes an empty tensor
  std::uint64_t begin = 0;          // data_offsets, relative to the start of the data buffer
  std::uint64_t end = 0;
  const std::byte* data = nullptr;  // into the mapping; valid while the SafetensorsFile lives

  [[nodiscard]] std::uint64_t bytes() const noexcept { return end - begin; }
  [[nodiscard]] std::int64_t numel() const noexcept;
};

/// A memory-mapped, validated safetensors file. Move-only; unmaps on destruction.
///   auto f = SafetensorsFile::open("model.safetensors");
///   const TensorInfo& w = f.at("lm_head.weight");   // w.dtype == Dtype::BF16, w.shape == {V, D}
/// @post tensors() is sorted by begin; the tensors' byte ranges tile the data buffer exactly.
class SafetensorsFile {
 public:
  /// Maps and validates `path`; errors name the file (by its file name) and the tensor.
  /// @pre the file can be opened and mapped [safetensors.file]; N fits in the file and is at most
  ///      100,000,000 [safetensors.header-length]; the header is a JSON object [safetensors.header];
  ///      each entry has exactly dtype, shape and data_offsets with the right types
  ///      [safetensors.entry]; dtype is known [safetensors.dtype]; names are unique
  ///      [safetensors.duplicate-name]; shape product x dtype size == end - begin
  ///      [safetensors.shape]; begin <= end <= data buffer size [safetensors.offsets]; ranges do
  ///      not overlap [safetensors.overlap] and cover the buffer with no gap or tail
  ///      [safetensors.coverage]; __metadata__ maps strings to strings [safetensors.metadata].
  [[nodiscard]] static SafetensorsFile open(const std::filesystem::path& path);

  SafetensorsFile(SafetensorsFile&& other) noexcept;
  SafetensorsFile& operator=(SafetensorsFile&& other) noexcept;
  SafetensorsFile(const SafetensorsFile&) = delete;
  SafetensorsFile& operator=(const SafetensorsFile&) = delete;
  ~SafetensorsFile();

  /// All tensors, in data-buffer order.
  [[nodiscard]] const std::vector<TensorInfo>& tensors() const noexcept { return tensors_; }
  /// The tensor called `name`, or nullptr.
  [[nodiscard]] const TensorInfo* find(std::string_view name) const noexcept;
  /// @pre the file holds `name` [safetensors.missing].
  [[nodiscard]] const TensorInfo& at(std::string_view name) const;
  /// The optional `__metadata__` pairs, in header order.
  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& metadata() const noexcept { return metadata_; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  /// Bytes in the file, and where the data buffer starts (8 + N).
  [[nodiscard]] std::uint64_t file_size() const noexcept { return size_; }
  [[nodiscard]] std::uint64_t data_offset() const noexcept { return data_offset_; }

 private:
  SafetensorsFile() = default;
  void release() noexcept;

  std::filesystem::path path_;
  void* map_ = nullptr;
  std::uint64_t size_ = 0;
  std::uint64_t data_offset_ = 0;
  std::vector<TensorInfo> tensors_;
  std::vector<std::size_t> by_name_;  // indices into tensors_, sorted by name
  std::vector<std::pair<std::string, std::string>> metadata_;
};

}  // namespace cute_cpp::models
