// SPDX-License-Identifier: Apache-2.0
// models/common/tensor_slice.cpp: reading a block of one safetensors tensor with pread. The file is
// the one SafetensorsFile::open validated (the header's offsets are trusted from there on); the
// slice is checked against the tensor's extents before any read.
#include "models/common/tensor_slice.hpp"

#include <fcntl.h>   // open
#include <unistd.h>  // pread, close

#include <algorithm>  // std::sort
#include <cerrno>     // errno
#include <cstring>    // std::strerror
#include <string>     // std::string

#include "models/common/error.hpp"     // LoadError, in_quotes
#include "models/common/manifest.hpp"  // shape_text

namespace cute_cpp::models {

namespace {
constexpr char kRuleSlice[] =
    "cute-cpp [tensor.slice]: a slice of a tensor must lie inside it: non-empty, non-overlapping row ranges and a "
    "non-empty column range on whole bytes, read into a buffer of exactly its bytes";
constexpr char kRuleRead[] =
    "cute-cpp [tensor.read]: the bytes of a tensor's slice must be readable from its safetensors file";
constexpr char kRuleShardOf[] = "cute-cpp [checkpoint.missing]: a tensor looked up by name must be in the checkpoint";

std::string range_text(std::int64_t b, std::int64_t e) {
  return "[" + std::to_string(b) + ", " + std::to_string(e) + ")";
}

/// An open file descriptor, closed when it goes.
class Fd {
 public:
  explicit Fd(const std::filesystem::path& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) throw LoadError(kRuleRead, path.string() + ": cannot open: " + std::strerror(errno));
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { ::close(fd_); }
  [[nodiscard]] int get() const noexcept { return fd_; }

 private:
  int fd_;
};

/// Reads exactly out.size() bytes at `offset`, over short reads and interruptions.
void pread_all(const Fd& fd, std::span<std::byte> out, std::uint64_t offset, const SafetensorsFile& file,
               const TensorInfo& t) {
  std::size_t done = 0;
  while (done < out.size()) {
    auto const n = ::pread(fd.get(), out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw LoadError(kRuleRead, file.path().filename().string() + ": tensor " + in_quotes(t.name) + ": reading " +
                                     std::to_string(out.size()) + " bytes at file offset " + std::to_string(offset) +
                                     (n < 0 ? std::string(" failed: ") + std::strerror(errno)
                                            : std::string(" met the end of the file")));
    done += static_cast<std::size_t>(n);
  }
}
}  // namespace

std::int64_t TensorSlice::rows_count() const noexcept {
  std::int64_t n = 0;
  for (RowRange const& r : rows) n += r.size();
  return n;
}

std::array<std::int64_t, 2> matrix_extents(std::span<const std::int64_t> shape) noexcept {
  if (shape.empty()) return {1, 1};
  std::int64_t cols = 1;
  for (std::size_t i = 1; i < shape.size(); ++i) cols *= shape[i];
  return {shape[0], cols};
}

TensorSlice whole_slice(std::span<const std::int64_t> shape) {
  auto const [rows, cols] = matrix_extents(shape);
  return {{{0, rows}}, 0, cols};
}

std::uint64_t slice_bytes(const TensorSlice& slice, Dtype dtype) noexcept {
  return static_cast<std::uint64_t>(slice.rows_count()) * static_cast<std::uint64_t>(slice.cols()) *
         static_cast<std::uint64_t>(dtype_bits(dtype)) / 8;
}

void check_slice(const TensorInfo& t, const TensorSlice& s) {
  auto const [rows, cols] = matrix_extents(t.shape);
  std::string const who = "tensor " + in_quotes(t.name) + " " + shape_text(t.shape) + " (as [" + std::to_string(rows) +
                          ", " + std::to_string(cols) + "])";
  if (s.rows.empty()) throw LoadError(kRuleSlice, who + ": the slice names no rows");
  for (RowRange const& r : s.rows)
    if (r.begin < 0 || r.begin >= r.end || r.end > rows)
      throw LoadError(kRuleSlice, who + ": row range " + range_text(r.begin, r.end) + " is empty or outside " +
                                      range_text(0, rows));
  std::vector<RowRange> sorted = s.rows;
  std::sort(sorted.begin(), sorted.end(), [](RowRange a, RowRange b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].begin < sorted[i - 1].end)
      throw LoadError(kRuleSlice, who + ": row ranges " + range_text(sorted[i - 1].begin, sorted[i - 1].end) + " and " +
                                      range_text(sorted[i].begin, sorted[i].end) + " overlap");
  if (s.col_begin < 0 || s.col_begin >= s.col_end || s.col_end > cols)
    throw LoadError(kRuleSlice, who + ": column range " + range_text(s.col_begin, s.col_end) + " is empty or outside " +
                                    range_text(0, cols));
  auto const bits = dtype_bits(t.dtype);
  if ((s.col_begin * bits) % 8 != 0 || (s.col_end * bits) % 8 != 0 || (cols * bits) % 8 != 0)
    throw LoadError(kRuleSlice, who + ": column range " + range_text(s.col_begin, s.col_end) + " of " +
                                    std::string(dtype_name(t.dtype)) + " does not fall on whole bytes");
}

void read_slice(const SafetensorsFile& file, const TensorInfo& t, const TensorSlice& slice, std::span<std::byte> out) {
  check_slice(t, slice);
  auto const expected = slice_bytes(slice, t.dtype);
  if (out.size() != expected)
    throw LoadError(kRuleSlice, "tensor " + in_quotes(t.name) + ": the output buffer holds " +
                                    std::to_string(out.size()) + " bytes, the slice " + std::to_string(expected));
  auto const bits = static_cast<std::uint64_t>(dtype_bits(t.dtype));
  auto const cols = static_cast<std::uint64_t>(matrix_extents(t.shape)[1]);
  std::uint64_t const row_bytes = cols * bits / 8;
  std::uint64_t const first = static_cast<std::uint64_t>(slice.col_begin) * bits / 8;
  std::uint64_t const cut = static_cast<std::uint64_t>(slice.cols()) * bits / 8;
  std::uint64_t const base = file.data_offset() + t.begin;
  Fd const fd(file.path());
  std::size_t at = 0;
  for (RowRange const& r : slice.rows) {
    auto const n = static_cast<std::uint64_t>(r.size());
    if (cut == row_bytes) {  // whole rows: the range is one run of bytes
      pread_all(fd, out.subspan(at, n * row_bytes), base + static_cast<std::uint64_t>(r.begin) * row_bytes, file, t);
      at += n * row_bytes;
      continue;
    }
    // NOTE: a column cut reads each row's part alone. The page cache still brings whole pages in,
    // so rows shorter than a few pages cost their whole pages from disk; the host buffer and the
    // copy to the device hold only the slice.
    for (std::uint64_t i = 0; i < n; ++i, at += cut)
      pread_all(fd, out.subspan(at, cut), base + (static_cast<std::uint64_t>(r.begin) + i) * row_bytes + first, file,
                t);
  }
}

const SafetensorsFile& shard_of(const Checkpoint& checkpoint, const TensorInfo& t) {
  for (SafetensorsFile const& f : checkpoint.shards())
    if (f.find(t.name) == &t) return f;
  throw LoadError(kRuleShardOf, checkpoint.folder().string() + ": tensor " + in_quotes(t.name) +
                                    " is not one of the checkpoint's mapped tensors");
}

void read_slice(const Checkpoint& checkpoint, const TensorInfo& t, const TensorSlice& slice, std::span<std::byte> out) {
  read_slice(shard_of(checkpoint, t), t, slice, out);
}

}  // namespace cute_cpp::models
