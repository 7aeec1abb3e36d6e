// SPDX-License-Identifier: Apache-2.0
// GemmTuner on the GPU: the tuned run writes what its tile's plan writes; the winner reaches the
// cache file and a second tuner (a later process) reads it; a corrupt file is ignored.
#include "device_fixtures.hpp"
#include "has_device.hpp"

#include <cute_cpp/kernels/gemm/gemm_tuner.hpp>

#include <cute_cpp/host/buffer.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
namespace fs = std::filesystem;
using bf16 = __nv_bfloat16;

namespace {

/// A scratch cache file, removed after the test.
struct ScratchCache {
  fs::path path = fs::temp_directory_path() / ("cute_cpp_tuner_" + std::to_string(std::random_device{}()) + ".txt");
  ~ScratchCache() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

}  // namespace

TEST(GemmTuner, TheTunedRunIsItsTilesRunAndTheWinnerIsKept) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  cute_cpp::test::Stream stream;
  ScratchCache cache;
  constexpr std::int64_t m = 3, n = 1000, k = 512;
  auto const a = cute_cpp::test::random_bf16(std::size_t(m * k), 11), b = cute_cpp::test::random_bf16(std::size_t(n * k), 12);
  host::DeviceBuffer<bf16> tuned(std::size_t(m * n)), direct(std::size_t(m * n));
  tuned.fill_bytes(0xFF);
  direct.fill_bytes(0xFF);
  kn::GemmArguments<kn::plans::Bf16TN> args;
  args.a = a.data(), args.lda = k, args.b = b.data(), args.ldb = k, args.ldc = n;
  args.m = m, args.n = n, args.k = k;
  kn::GemmTuner tuner(cache.path);
  args.c = tuned.data();
  tuner.run(args, stream.s);
  kn::GemmChoice const choice = tuner.choice(args, stream.s);  // cached now
  args.c = direct.data();
  kn::run_gemm_choice<bf16, kn::plans::K, kn::plans::K>(choice, args, stream.s);
  ASSERT_EQ(cudaStreamSynchronize(stream.s), cudaSuccess);
  auto const x = tuned.download(), y = direct.download();
  EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size() * sizeof(bf16)), 0) << "choice " << kn::gemm_choice_name(choice);
  // The file holds the winner; another tuner reads it.
  std::string warning;
  auto const file = host::TuneCache::read(cache.path, &warning);
  EXPECT_EQ(warning, "");
  ASSERT_EQ(file.size(), 1u);
  kn::GemmTuner later(cache.path);
  kn::GemmChoice const again = later.choice(args, stream.s);
  EXPECT_EQ(kn::gemm_choice_name(again), kn::gemm_choice_name(choice));
}

TEST(GemmTuner, ACorruptCacheIsIgnored) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  cute_cpp::test::Stream stream;
  ScratchCache cache;
  std::ofstream(cache.path) << "cute-cpp tune cache 1\nnot an entry\n";
  constexpr std::int64_t m = 16, n = 256, k = 64;
  auto const a = cute_cpp::test::random_bf16(std::size_t(m * k), 13), b = cute_cpp::test::random_bf16(std::size_t(n * k), 14);
  host::DeviceBuffer<bf16> c(std::size_t(m * n));
  kn::GemmArguments<kn::plans::Bf16TN> args;
  args.a = a.data(), args.lda = k, args.b = b.data(), args.ldb = k, args.c = c.data(), args.ldc = n;
  args.m = m, args.n = n, args.k = k;
  kn::GemmTuner tuner(cache.path);  // warns on stderr
  EXPECT_NO_THROW(tuner.run(args, stream.s));
  std::string warning;
  EXPECT_EQ(host::TuneCache::read(cache.path, &warning).size(), 1u);  // rewritten whole
  EXPECT_EQ(warning, "");
}
