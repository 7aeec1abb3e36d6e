// SPDX-License-Identifier: Apache-2.0
// models/common/tensor_slice: read_slice against the same block cut from the mapped file (the full
// read), for whole tensors, row ranges (in any order), column cuts, 3-D and 1-D tensors and a sub-byte
// dtype; and each of its errors.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "models/common/checkpoint.hpp"
#include "models/common/tensor_slice.hpp"
#include "tests/cpu/models/st_writer.hpp"

namespace cm = cute_cpp::models;
using cute_cpp::test::expect_load_error;
using cute_cpp::test::ScratchDir;
using cute_cpp::test::TensorSpec;
using cute_cpp::test::well_formed;
using cute_cpp::test::write_file;

namespace {

std::string random_bytes(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::string s(n, '\0');
  for (auto& c : s) c = static_cast<char>(gen() & 0xff);
  return s;
}

/// The slice cut from the mapped tensor in memory, element by element: what read_slice must return.
std::vector<std::byte> cut(const cm::TensorInfo& t, const cm::TensorSlice& s) {
  auto const cols = static_cast<std::size_t>(cm::matrix_extents(t.shape)[1]);
  auto const bits = static_cast<std::size_t>(cm::dtype_bits(t.dtype));
  std::vector<std::byte> out;
  for (cm::RowRange const& r : s.rows)
    for (auto row = static_cast<std::size_t>(r.begin); row < static_cast<std::size_t>(r.end); ++row) {
      std::byte const* from = t.data + (row * cols + static_cast<std::size_t>(s.col_begin)) * bits / 8;
      out.insert(out.end(), from, from + static_cast<std::size_t>(s.cols()) * bits / 8);
    }
  return out;
}

class TensorSliceTest : public ScratchDir {
 protected:
  void SetUp() override {
    ScratchDir::SetUp();
    write_file(dir_ / "model.safetensors", well_formed({{"a", "BF16", {12, 40}, random_bytes(12 * 40 * 2, 1)},
                                                        {"b", "F32", {5, 3, 4}, random_bytes(5 * 3 * 4 * 4, 2)},
                                                        {"c", "BF16", {40}, random_bytes(40 * 2, 3)},
                                                        {"d", "F4", {4, 6}, random_bytes(12, 4)}}));
  }
  /// read_slice of `name` equals the in-memory cut, through the file and through the checkpoint.
  void expect_same(const std::string& name, const cm::TensorSlice& s) {
    auto const f = cm::SafetensorsFile::open(dir_ / "model.safetensors");
    cm::TensorInfo const& t = f.at(name);
    std::vector<std::byte> got(cm::slice_bytes(s, t.dtype));
    cm::read_slice(f, t, s, got);
    EXPECT_EQ(got, cut(t, s)) << name;
    auto const ckpt = cm::Checkpoint::open(dir_);
    std::vector<std::byte> again(got.size());
    cm::read_slice(ckpt, ckpt.at(name), s, again);
    EXPECT_EQ(again, got) << name;
  }
};

TEST_F(TensorSliceTest, EqualsTheFullReadsBlock) {
  expect_same("a", cm::whole_slice(std::vector<std::int64_t>{12, 40}));
  expect_same("a", {{{3, 7}}, 0, 40});           // whole rows: one read
  expect_same("a", {{{0, 12}}, 10, 20});         // a column cut: one read per row
  expect_same("a", {{{8, 12}, {0, 2}}, 5, 39});  // row ranges in the order given
  expect_same("a", {{{11, 12}}, 39, 40});        // the last element
  expect_same("b", {{{1, 4}}, 4, 12});           // 3-D as [5, 12]
  expect_same("b", cm::whole_slice(std::vector<std::int64_t>{5, 3, 4}));
  expect_same("c", {{{7, 33}}, 0, 1});  // 1-D as [40, 1]
  expect_same("d", {{{1, 3}}, 2, 6});   // F4: columns on whole bytes
}

TEST(TensorSlice, Extents) {
  EXPECT_EQ(cm::matrix_extents(std::vector<std::int64_t>{5, 3, 4}), (std::array<std::int64_t, 2>{5, 12}));
  EXPECT_EQ(cm::matrix_extents(std::vector<std::int64_t>{7}), (std::array<std::int64_t, 2>{7, 1}));
  EXPECT_EQ(cm::matrix_extents(std::vector<std::int64_t>{}), (std::array<std::int64_t, 2>{1, 1}));
  cm::TensorSlice const s{{{0, 4}, {8, 12}}, 16, 32};
  EXPECT_EQ(s.rows_count(), 8);
  EXPECT_EQ(cm::slice_bytes(s, cm::Dtype::BF16), 8u * 16u * 2u);
}

TEST_F(TensorSliceTest, RefusesSlicesOutsideTheTensor) {
  auto const f = cm::SafetensorsFile::open(dir_ / "model.safetensors");
  auto const read = [&](const std::string& name, cm::TensorSlice s, std::size_t bytes) {
    return [&f, name, s, bytes] {
      std::vector<std::byte> out(bytes);
      cm::read_slice(f, f.at(name), s, out);
    };
  };
  expect_load_error(read("a", {{}, 0, 40}, 0), "[tensor.slice]", "the slice names no rows");
  expect_load_error(read("a", {{{10, 13}}, 0, 40}, 3 * 80), "[tensor.slice]",
                    "row range [10, 13) is empty or outside [0, 12)");
  expect_load_error(read("a", {{{4, 4}}, 0, 40}, 0), "[tensor.slice]", "row range [4, 4)");
  expect_load_error(read("a", {{{0, 5}, {4, 6}}, 0, 40}, 7 * 80), "[tensor.slice]",
                    "row ranges [0, 5) and [4, 6) overlap");
  expect_load_error(read("a", {{{0, 1}}, 30, 41}, 22), "[tensor.slice]",
                    "column range [30, 41) is empty or outside [0, 40)");
  expect_load_error(read("a", {{{0, 1}}, 0, 40}, 79), "[tensor.slice]",
                    "the output buffer holds 79 bytes, the slice 80");
  expect_load_error(read("d", {{{0, 1}}, 1, 3}, 1), "[tensor.slice]",
                    "column range [1, 3) of F4 does not fall on whole bytes");
}

}  // namespace

TEST_F(TensorSliceTest, ReportsAFileThatChangedAfterItWasMapped) {
  // read_slice reads the file again by its path: a file cut short or removed since open() is a
  // tensor.read error, not a short buffer.
  auto const f = cm::SafetensorsFile::open(dir_ / "model.safetensors");
  cm::TensorInfo const& b = f.at("b");
  std::vector<std::byte> out(cm::slice_bytes(cm::whole_slice(b.shape), b.dtype));
  std::filesystem::resize_file(dir_ / "model.safetensors", f.data_offset() + b.begin + 10);
  expect_load_error([&] { cm::read_slice(f, b, cm::whole_slice(b.shape), out); }, "[tensor.read]",
                    "model.safetensors: tensor \"b\": reading 240 bytes at file offset");
  std::filesystem::remove(dir_ / "model.safetensors");
  expect_load_error([&] { cm::read_slice(f, b, cm::whole_slice(b.shape), out); }, "[tensor.read]", "cannot open");
}
