// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// wgmma_tma_gemm: C = A * B^T on Hopper (sm_90a), A (M, K) and B (N, K) bf16, both K-major
// (row-major), C (M, N) bf16, accumulated in fp32. One CTA computes one 128 x 128 tile of C:
//   1. warp 0 (the producer) loads 128 x 64 tiles of A and B with TMA into a 4-stage ring of
//      swizzled shared buffers, one PipelineTmaAsync stage per k-tile;
//   2. warpgroup 1 (the consumer) waits for each stage, multiplies it with wgmma (two 64-row
//      atoms of m64n128k16, four k-slices) into registers, and releases the stage;
//   3. the consumer converts its accumulators to bf16 and stores the ones inside C.
// TMA zero-fills the parts of a box outside A or B, so M, N and K need not be multiples of the
// tile (K a multiple of 8: TMA rows are 16-byte aligned). Checked on fresh random data against a
// CPU reference in double.
//   wgmma_tma_gemm            (needs an sm_90a GPU; without a GPU it says so and exits 0)
#include <cute_cpp/arch.hpp>                          // arch::warp_idx, elect_one_sync, lane_idx
#include <cute_cpp/copy.hpp>                          // TmaCopy
#include <cute_cpp/diag/verify_plan.hpp>              // verify_plan
#include <cute_cpp/host.hpp>                          // DeviceBuffer, launch, cuda_check
#include <cute_cpp/host/tensor_map_encode.hpp>        // host::create_tensor_map_tiled
#include <cute_cpp/layout.hpp>                        // C, make_layout, local_tile
#include <cute_cpp/mma/sm90_wgmma.hpp>                // sm90::WgmmaTiledMma, AOperand, BOperand
#include <cute_cpp/pipeline/pipeline_state.hpp>       // make_pipeline_state, PipelineUserType
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>   // PipelineTmaAsync
#include <cute_cpp/smem/allocator.hpp>                // SmemAllocator, smem_bytes_for
#include <cute_cpp/smem/smem_tile.hpp>                // SmemKMajor
#include <cute_cpp/tensor.hpp>                        // make_tensor
#include <cute_cpp/tma/tensor_map.hpp>                // TensorMap

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace cc = cute_cpp;
using cc::C;
using bf16 = cc::bf16;

// ---- the plan: every static fact of the kernel, checked before any code is generated ----
struct Plan {
  static constexpr int block_m = 128, block_n = 128, block_k = 64, stages = 4;
  // K-major tiles of 64 bf16 = 128 bytes a row, in the 128-byte swizzle TMA writes and wgmma reads.
  using SmemA = cc::SmemKMajor<bf16, block_m, block_k>;
  using SmemB = cc::SmemKMajor<bf16, block_n, block_k>;
  using MapA = cc::TensorMap<bf16, SmemA>;  // TMA boxes of 64 x 128
  using MapB = cc::TensorMap<bf16, SmemB>;
  // One warpgroup: 2 atoms of 64 rows x 128 columns; 64 fp32 accumulators per thread per atom.
  using Mma = cc::sm90::WgmmaTiledMma<bf16, bf16, float, cc::sm90::AOperand<SmemA>, cc::sm90::BOperand<SmemB>,
                                      block_m / 64, block_n>;
  static constexpr int consumer_warps = 4;  // every warp of the consumer warpgroup releases each stage
  using Pipeline = cc::PipelineTmaAsync<stages, consumer_warps, MapA::tile_bytes + MapB::tile_bytes>;
  struct SharedStorage {
    struct alignas(1024) Stage {  // 1024: the 128-byte swizzle's repeat, where TMA and wgmma tiles start
      bf16 a[block_m * block_k];
      bf16 b[block_n * block_k];
    };
    Stage stage[stages];
    Pipeline::SharedStorage barriers;
  };
  static constexpr int threads = 256;  // warpgroup 0: the producer warp (and 3 idle); warpgroup 1: the consumer
  static constexpr std::size_t smem_bytes = cc::smem_bytes_for<SharedStorage>();
};
// verify_plan: threads, the shared-memory budget, one empty-barrier arrival per consumer warp.
static_assert(cc::verify_plan<Plan>(), "cute-cpp: the plan breaks the rule named above");
static_assert(sizeof(Plan::SharedStorage::Stage::a) % 1024 == 0,
              "cute-cpp: B's tile must start on the 1024-byte repeat of the 128-byte swizzle");
static_assert(Plan::Pipeline::tx_bytes == sizeof(Plan::SharedStorage::Stage),
              "cute-cpp: a stage's expected TMA bytes must be exactly its A and B tiles");

__global__ void __launch_bounds__(Plan::threads, 1)
gemm_kernel(const __grid_constant__ Plan::MapA tma_a, const __grid_constant__ Plan::MapB tma_b, bf16* c, int m, int n,
            int k) {
  using Mma = Plan::Mma;
  extern __shared__ char smem_raw[];
  cc::SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<Plan::SharedStorage>();  // at 1024 bytes, as the Stage asks
  Plan::Pipeline const pipeline{&smem.barriers};
  if (threadIdx.x == 0) {
    Plan::Pipeline::init(smem.barriers);  // each stage: a full barrier (1 arrival + bytes), an empty one (4 warps)
    cc::TmaCopy::prefetch_descriptor(tma_a);
    cc::TmaCopy::prefetch_descriptor(tma_b);
  }
  __syncthreads();  // the barriers exist before anyone waits on them
  int const m0 = int(blockIdx.y) * Plan::block_m, n0 = int(blockIdx.x) * Plan::block_n;
  int const k_tiles = (k + Plan::block_k - 1) / Plan::block_k;

  // ---- producer: one elected lane of warp 0 fills the ring ----
  if (cc::arch::warp_idx() == 0) {
    if (cc::arch::elect_one_sync()) {
      auto state = cc::make_pipeline_state<Plan::stages>(cc::PipelineUserType::Producer);
      for (int kt = 0; kt < k_tiles; ++kt, state.advance()) {
        pipeline.producer_acquire(state);    // wait until the consumer has released this stage
        pipeline.producer_expect_tx(state);  // arm its full barrier with the bytes of both tiles
        auto& stage = smem.stage[state.index()];
        std::uint64_t* const full = pipeline.producer_get_barrier(state);
        cc::TmaCopy::load(tma_a, stage.a, full, kt * Plan::block_k, m0);  // (inner, outer) = (k, row)
        cc::TmaCopy::load(tma_b, stage.b, full, kt * Plan::block_k, n0);
      }
    }
    return;
  }
  if (threadIdx.x < 128) return;  // warps 1-3 of the producer warpgroup have no work

  // ---- consumer: warpgroup 1 multiplies each stage as it lands ----
  Mma::FragmentC acc;  // (N/2, ATOMS_M) fp32; the first k-tile overwrites it
  auto state = cc::make_pipeline_state<Plan::stages>(cc::PipelineUserType::Consumer);
  for (int kt = 0; kt < k_tiles; ++kt, state.advance()) {
    pipeline.consumer_wait(state);  // the stage's TMA bytes have landed
    auto const& stage = smem.stage[state.index()];
    Mma::warpgroup_arrive(acc);
    Mma::gemm(acc, stage.a, stage.b, /*row0=*/0, /*accumulate=*/kt > 0);  // 2 atoms x 4 k-slices of wgmma
    Mma::commit_group();
    // NOTE: waiting for this stage's wgmmas before releasing it keeps the example simple; a faster
    // kernel keeps one group in flight (wait_group<1>) and releases the previous stage instead.
    Mma::wait_group<0>(acc);
    pipeline.consumer_release(state, cc::arch::lane_idx());  // lane 0 of each warp arrives on the empty barrier
  }

  // ---- epilogue: accumulators -> bf16 -> C, skipping what lies outside C ----
  auto const gC = cc::local_tile(cc::make_tensor(c, cc::make_layout(cc::make_shape(m, n), cc::make_stride(n, C<1>{}))),
                                 cc::make_shape(C<Plan::block_m>{}, C<Plan::block_n>{}),
                                 cc::make_coord(int(blockIdx.y), int(blockIdx.x)));  // (BM,BN)
  auto const thr = Mma::get_slice(int(threadIdx.x) - 128);
  int const rows = m - m0, cols = n - n0;
  for (int a = 0; a < Mma::atoms_m; ++a)
    for (int j = 0; j < Mma::n / 2; ++j) {
      int const row = thr.row(a, j), col = thr.col(j);
      if (row < rows && col < cols) gC(row, col) = __float2bfloat16(acc(j, a));
    }
}

// ---- host ----

void gemm(bf16 const* a, bf16 const* b, bf16* c, int m, int n, int k) {
  if (k <= 0 || k % 8 != 0) throw std::invalid_argument("K must be a positive multiple of 8");
  // Rank-2 maps, the contiguous extent (K) first: dims {K, rows}, the row stride in bytes.
  auto const ku = std::uint64_t(k), row_bytes = ku * sizeof(bf16);
  auto const map_a = cc::host::create_tensor_map_tiled<bf16, Plan::SmemA, 2>(a, {ku, std::uint64_t(m)}, {row_bytes});
  auto const map_b = cc::host::create_tensor_map_tiled<bf16, Plan::SmemB, 2>(b, {ku, std::uint64_t(n)}, {row_bytes});
  dim3 const grid(unsigned((n + Plan::block_n - 1) / Plan::block_n), unsigned((m + Plan::block_m - 1) / Plan::block_m));
  cc::host::launch(gemm_kernel, "gemm_kernel",
                   cc::host::LaunchConfig{.grid = grid, .block = dim3(Plan::threads), .smem_bytes = Plan::smem_bytes},
                   map_a, map_b, c, m, n, k);
}

bool check(int m, int n, int k, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<bf16> ha(std::size_t(m) * k), hb(std::size_t(n) * k);
  for (auto& v : ha) v = __float2bfloat16(dist(rng));
  for (auto& v : hb) v = __float2bfloat16(dist(rng));
  cc::host::DeviceBuffer<bf16> da(ha.size()), db(hb.size()), dc(std::size_t(m) * n);
  da.upload(ha);
  db.upload(hb);
  dc.fill_bytes(0xFF);  // poison: every bf16 is a NaN until written
  gemm(da.data(), db.data(), dc.data(), m, n, k);
  cc::host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const hc = dc.download();

  std::size_t bad = 0;
  double worst = 0.0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0.0, magnitude = 0.0;
      for (int p = 0; p < k; ++p) {
        double const product = double(float(ha[std::size_t(i) * k + p])) * double(float(hb[std::size_t(j) * k + p]));
        want += product;
        magnitude += std::fabs(product);
      }
      // NOTE: C is rounded to bf16 (half an ulp: 2^-8 relative; allowed twice that), after an fp32
      // sum of exact bf16 products (allowed 1e-4 of the sum of magnitudes).
      double const got = double(float(hc[std::size_t(i) * n + j]));
      double const error = std::fabs(got - want);
      double const tolerance = std::ldexp(std::fabs(want), -7) + 1e-4 * magnitude + 1e-6;
      worst = std::max(worst, error / tolerance);
      if (!(error <= tolerance) && bad++ < 5)
        std::printf("  mismatch at C(%d, %d): got %g, want %g\n", i, j, got, want);
    }
  std::printf("check M=%-5d N=%-5d K=%-5d %s (largest error / tolerance %.3f)\n", m, n, k,
              bad == 0 ? "ok    " : "FAILED", worst);
  return bad == 0;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("wgmma_tma_gemm: needs an sm_90a GPU (H100, H200); none found, nothing run\n");
    return 0;
  }
  try {
    unsigned const seed = std::random_device{}();
    std::printf("wgmma_tma_gemm: seed %u\n", seed);
    std::mt19937 rng(seed);
    bool ok = true;
    for (auto [m, n, k] : {std::tuple{1, 8, 8}, std::tuple{200, 136, 72}, std::tuple{511, 257, 1000},
                           std::tuple{1024, 768, 1024}})
      ok &= check(m, n, k, rng);
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "wgmma_tma_gemm: %s\n", e.what());
    return 1;
  }
}
