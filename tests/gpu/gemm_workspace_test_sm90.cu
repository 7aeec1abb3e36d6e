// SPDX-License-Identifier: Apache-2.0
// The GEMM's workspace contract (issue 51): one workspace, zeroed once when allocated, serves any
// sequence of GEMMs of any shapes, tiles and decompositions. A transformer layer runs its output
// and down projections on one workspace with different split-K and stream-K tile counts; while
// the counters' region grew with the tile count, a launch with more split tiles than the one
// before found that launch's partial sums where its counters should have been zero. Here a
// sequence of split-K and stream-K GEMMs, fewest shared tiles first, then the reverse, runs on one
// stream and one workspace without a synchronisation between; every output is checked against an
// fp32 reference, and the counters are zero at the end.
#include "device_fixtures.hpp"
#include "has_device.hpp"

#include <cute_cpp/kernels/gemm/gemm.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <cute_cpp/epilogue/split_k_reduce.hpp>
#include <cute_cpp/host/buffer.hpp>

#include <gtest/gtest.h>

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace kn = cute_cpp::kernels;
namespace host = cute_cpp::host;
using bf16 = __nv_bfloat16;

namespace {

using cute_cpp::test::random_bf16;
using cute_cpp::test::Stream;

/// C = A B^T in fp32, A (m, k) and B (n, k) row-major: one thread an output.
__global__ void reference_gemm(bf16 const* a, bf16 const* b, float* c, int m, int n, int k) {
  int const i = int(blockIdx.y), j = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (j >= n) return;
  float sum = 0.0f;
  for (int kk = 0; kk < k; ++kk)
    sum += __bfloat162float(a[std::int64_t(i) * k + kk]) * __bfloat162float(b[std::int64_t(j) * k + kk]);
  c[std::int64_t(i) * n + j] = sum;
}

/// One GEMM of the sequence: its shape, the tile and cut it is forced to, its operands and output.
struct Call {
  std::int64_t m, n, k;
  kn::GemmChoice choice;
  host::DeviceBuffer<bf16> a, b, c;
  std::vector<float> reference;
};

Call make_call(std::int64_t m, std::int64_t n, std::int64_t k, kn::GemmChoice choice, std::uint32_t seed) {
  Call call{m, n, k, choice, random_bf16(std::size_t(m * k), seed), random_bf16(std::size_t(n * k), seed + 1),
            host::DeviceBuffer<bf16>(std::size_t(m * n)), {}};
  host::DeviceBuffer<float> ref(std::size_t(m * n));
  reference_gemm<<<dim3(unsigned((n + 127) / 128), unsigned(m)), 128>>>(call.a.data(), call.b.data(), ref.data(),
                                                                          int(m), int(n), int(k));
  host::cuda_check(cudaDeviceSynchronize(), "reference_gemm");
  call.reference = ref.download();
  return call;
}

kn::AutoGemmArguments<bf16> arguments(Call const& call) {
  kn::AutoGemmArguments<bf16> args;
  args.a = call.a.data(), args.lda = call.k;
  args.b = call.b.data(), args.ldb = call.k;
  args.c = call.c.data(), args.ldc = call.n;
  args.m = call.m, args.n = call.n, args.k = call.k;
  return args;
}

/// The elements of `call`'s output off its reference by more than bf16's rounding allows.
std::int64_t wrong_elements(Call const& call) {
  auto const got = call.c.download();
  float const scale = std::sqrt(float(call.k));
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    float const g = __bfloat162float(got[i]), r = call.reference[i];
    if (!(std::fabs(g - r) <= 1e-2f * std::fabs(r) + 1e-3f * scale)) ++wrong;
  }
  return wrong;
}

}  // namespace

TEST(GemmWorkspace, ServesAnySequenceOfSplitKAndStreamKShapes) {
  if (!cute_cpp::test::has_device()) GTEST_SKIP() << "no GPU";
  using kn::Decomposition;
  using kn::GemmTile;
  // Sizes not multiples of the tiles (N and K multiples of 8: TMA wants 16-byte row strides); shared
  // tiles from a handful to two waves.
  std::vector<Call> calls;
  calls.push_back(make_call(200, 1000, 2048, {GemmTile::n128, Decomposition::SplitK, 2}, 10));
  calls.push_back(make_call(24, 3000, 4096, {GemmTile::swap32, Decomposition::SplitK, 3}, 20));
  calls.push_back(make_call(700, 2504, 3000, {GemmTile::n128, Decomposition::SplitK, 4}, 30));
  calls.push_back(make_call(1500, 2904, 1096, {GemmTile::n256, Decomposition::StreamK}, 40));
  calls.push_back(make_call(100, 6000, 5000, {GemmTile::n64c1, Decomposition::SplitK, 6}, 50));
  calls.push_back(make_call(2100, 3304, 2000, {GemmTile::n128, Decomposition::StreamK}, 60));
  std::size_t bytes = 0;
  for (Call const& c : calls) {
    std::size_t const need = kn::gemm_choice_workspace_bytes<bf16, kn::plans::K, kn::plans::K>(c.choice, arguments(c));
    bytes = std::max(bytes, need);
  }
  ASSERT_GT(bytes, cute_cpp::split_k_counter_bytes) << "no call of the sequence splits or shares a tile";
  host::DeviceBuffer<unsigned char> workspace(bytes);
  workspace.fill_bytes(0);
  Stream stream;
  for (int round = 0; round < 2; ++round) {
    if (round == 1) std::reverse(calls.begin(), calls.end());
    for (Call& c : calls) c.c.fill_bytes(0xFF);  // NaN in bf16
    for (Call const& c : calls) {
      auto args = arguments(c);
      args.workspace = workspace.data(), args.workspace_bytes = bytes;
      std::size_t const need = kn::gemm_choice_workspace_bytes<bf16, kn::plans::K, kn::plans::K>(c.choice, args);
      ASSERT_GT(need, 0u)
          << kn::gemm_choice_name(c.choice) << " takes no workspace for " << c.m << "x" << c.n << "x" << c.k;
      kn::run_gemm_choice<bf16, kn::plans::K, kn::plans::K>(c.choice, args, stream.s);
    }
    ASSERT_EQ(cudaStreamSynchronize(stream.s), cudaSuccess);
    for (Call const& c : calls)
      EXPECT_EQ(wrong_elements(c), 0) << "round " << round << ": " << c.m << "x" << c.n << "x" << c.k << " as "
                                      << kn::gemm_choice_name(c.choice);
  }
  std::vector<std::uint32_t> counters(cute_cpp::split_k_counter_words);
  ASSERT_EQ(cudaMemcpy(counters.data(), workspace.data(), cute_cpp::split_k_counter_bytes, cudaMemcpyDeviceToHost),
            cudaSuccess);
  EXPECT_EQ(std::count(counters.begin(), counters.end(), 0u), std::ptrdiff_t(counters.size()))
      << "a counter was left raised";
}
