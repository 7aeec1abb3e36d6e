// SPDX-License-Identifier: Apache-2.0
#pragma once
// models/common/tensor_slice.hpp: reading part of one safetensors tensor straight from its file (a
// block of rows and columns, or several row ranges), without reading the rest: what a tensor-parallel
// loader needs to fill one device's shard (models/qwen3/tensor_parallel.hpp) with no full copy of the
// tensor on the host. The tensor is seen as a matrix [shape[0], product of the other extents] (a 1-D
// tensor [n] as [n, 1]), row-major as safetensors stores it.
#include <array>    // std::array
#include <cstddef>  // std::byte
#include <cstdint>  // std::int64_t, std::uint64_t
#include <span>     // std::span
#include <vector>   // std::vector

#include "models/common/checkpoint.hpp"   // Checkpoint
#include "models/common/safetensors.hpp"  // SafetensorsFile, TensorInfo

namespace cute_cpp::models {

/// Rows [begin, end) of a tensor's matrix view.
struct RowRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  [[nodiscard]] std::int64_t size() const noexcept { return end - begin; }
  bool operator==(const RowRange&) const = default;
};

/// A part of a tensor's matrix view: the rows of `rows`, in that order, each cut to columns
/// [col_begin, col_end). Read compactly: row i of the slice is rows_count() x cols() elements on.
///   TensorSlice{{{0, 4}, {8, 12}}, 16, 32}  of a [12, 64] tensor  ->  an [8, 16] block
struct TensorSlice {
  std::vector<RowRange> rows;
  std::int64_t col_begin = 0;
  std::int64_t col_end = 0;

  [[nodiscard]] std::int64_t rows_count() const noexcept;
  [[nodiscard]] std::int64_t cols() const noexcept { return col_end - col_begin; }
  bool operator==(const TensorSlice&) const = default;
};

/// The matrix view's extents of `shape`: {shape[0], product of the rest}; a scalar is [1, 1].
[[nodiscard]] std::array<std::int64_t, 2> matrix_extents(std::span<const std::int64_t> shape) noexcept;
/// The whole tensor of `shape` as a slice.
[[nodiscard]] TensorSlice whole_slice(std::span<const std::int64_t> shape);
/// Bytes of `slice` in `dtype` (whole bytes: checked by check_slice).
[[nodiscard]] std::uint64_t slice_bytes(const TensorSlice& slice, Dtype dtype) noexcept;

/// @pre the row ranges are non-empty, in bounds and do not overlap; 0 <= col_begin < col_end <=
///      columns; a column cut of a sub-byte dtype (F4, F6_*) falls on whole bytes [tensor.slice].
void check_slice(const TensorInfo& t, const TensorSlice& slice);

/// Reads `slice` of `t`, a tensor of `file`, into `out` (slice_bytes of it), reading only the bytes
/// it needs with pread: each row range whose columns are whole as one read, else one read per row.
/// @pre check_slice(t, slice) [tensor.slice]; out.size() == slice_bytes(slice, t.dtype)
///      [tensor.slice]; `t` is one of `file`'s tensors; the reads succeed [tensor.read].
void read_slice(const SafetensorsFile& file, const TensorInfo& t, const TensorSlice& slice, std::span<std::byte> out);
/// The same for a tensor of `checkpoint`, in whichever shard holds it.
void read_slice(const Checkpoint& checkpoint, const TensorInfo& t, const TensorSlice& slice, std::span<std::byte> out);

/// The shard of `checkpoint` whose tensors() hold `t`. @pre there is one [checkpoint.missing].
[[nodiscard]] const SafetensorsFile& shard_of(const Checkpoint& checkpoint, const TensorInfo& t);

}  // namespace cute_cpp::models
