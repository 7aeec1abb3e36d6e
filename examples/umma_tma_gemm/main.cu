// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// umma_tma_gemm: C = A * B^T on Blackwell (sm_100a), A (M, K) and B (N, K) bf16, both K-major
// (row-major), C (M, N) bf16, accumulated in fp32 in tensor memory. One CTA computes one 128 x 128
// tile of C with three roles that meet only at barriers:
//   1. warp 0 (the producer) loads 128 x 64 tiles of A and B with TMA into a 4-stage ring of
//      swizzled shared buffers (PipelineTmaUmma);
//   2. warp 1 (the MMA warp) allocates 128 tensor-memory columns; one elected thread issues
//      tcgen05.mma (UmmaTiledMma, M 128 x N 128, four k-slices of 16) on each stage as it lands and
//      frees the stage with tcgen05.commit, so the stage is refilled once those MMAs have read it;
//      after the last k-tile it commits the accumulator (PipelineUmmaAsync);
//   3. warpgroup 1 (the epilogue) waits for the accumulator; warp w reads tensor-memory lanes
//      32 (w % 4) .. +31 (rows of the tile) with tcgen05.ld, converts to bf16 and stores into C.
// TMA zero-fills what lies outside A or B, so M, N and K need not be multiples of the tile (K a
// multiple of 8: TMA rows are 16-byte aligned). Checked on fresh random data against a CPU reference.
//   umma_tma_gemm             (needs an sm_100a GPU; on any other, or none, it says so and exits 0)
#include <cute_cpp/arch.hpp>                          // arch::warp_idx, elect_one_sync, lane_idx
#include <cute_cpp/arch/tmem.hpp>                     // fence_view_async_tmem_load
#include <cute_cpp/copy.hpp>                          // TmaCopy
#include <cute_cpp/host.hpp>                          // DeviceBuffer, launch, cuda_check
#include <cute_cpp/host/tensor_map_encode.hpp>        // host::create_tensor_map_tiled
#include <cute_cpp/mma/sm100_umma.hpp>                // sm100::UmmaTiledMma
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>    // PipelineTmaUmma
#include <cute_cpp/pipeline/pipeline_umma_async.hpp>  // PipelineUmmaAsync
#include <cute_cpp/smem/allocator.hpp>                // SmemAllocator, smem_bytes_for
#include <cute_cpp/smem/smem_stages.hpp>              // SmemStages
#include <cute_cpp/tmem/tmem_allocator.hpp>           // sm100::TmemAllocator
#include <cute_cpp/tmem/tmem_copy.hpp>                // sm100::TmemCopyAtom, get_slice
#include <cute_cpp/tma/tensor_map.hpp>                // TensorMap

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace cc = cute_cpp;
using bf16 = cc::bf16;

// ---- the plan: every static fact of the kernel, checked before any code is generated ----
struct Plan {
  static constexpr int block_m = 128, block_n = 128, block_k = 64, stages = 4;
  // K-major tiles of 64 bf16 = 128 bytes a row, in the 128-byte swizzle TMA writes and UMMA reads.
  using SmemA = cc::SmemKMajor<bf16, block_m, block_k>;
  using SmemB = cc::SmemKMajor<bf16, block_n, block_k>;
  using MapA = cc::TensorMap<bf16, SmemA>;
  using MapB = cc::TensorMap<bf16, SmemB>;
  // One CTA's 128 x 128 product: the instruction descriptor and the tiles' descriptors follow
  // from these types; the accumulator takes 128 fp32 columns of tensor memory.
  using Mma = cc::sm100::UmmaTiledMma<bf16, bf16, float, cc::sm90::AOperand<SmemA>, cc::sm90::BOperand<SmemB>,
                                      block_m, block_n>;
  using Tmem = cc::sm100::TmemAllocator<Mma::tmem_alloc_columns()>;
  using Ring = cc::PipelineTmaUmma<stages, MapA::tile_bytes + MapB::tile_bytes>;
  static constexpr int epilogue_warps = 4;  // each arrives once on the accumulator's empty barrier
  using AccReady = cc::PipelineUmmaAsync<1, epilogue_warps>;
  // Each epilogue warp reads its 32 lanes 32 columns at a time (register j of lane t: row t, column j).
  using Load = cc::sm100::TmemCopyAtom<ctm::Tcgen05LdStShape::s32x32b, 32>;
  struct SharedStorage {
    cc::SmemStages<bf16, SmemA, stages> a;  // each stage 1024-byte aligned: the swizzle's repeat
    cc::SmemStages<bf16, SmemB, stages> b;
    Ring::SharedStorage ring;
    AccReady::SharedStorage acc;
    std::uint32_t tmem_slot;  // tcgen05.alloc writes the accumulator's address here
  };
  static constexpr int threads = 256;  // warp 0: producer, warp 1: MMA, warps 4-7: epilogue
  static constexpr std::size_t smem_bytes = cc::smem_bytes_for<SharedStorage>();
};
static_assert(Plan::Ring::tx_bytes == sizeof(bf16) * (Plan::block_m + Plan::block_n) * Plan::block_k,
              "cute-cpp: a stage's expected TMA bytes must be exactly its A and B tiles");

__global__ void __launch_bounds__(Plan::threads, 1)
gemm_kernel(const __grid_constant__ Plan::MapA tma_a, const __grid_constant__ Plan::MapB tma_b, bf16* c, int m, int n,
            int k) {
  using Mma = Plan::Mma;
  extern __shared__ char smem_raw[];
  cc::SmemAllocator carve(smem_raw);
  auto& smem = *carve.allocate_object<Plan::SharedStorage>();
  Plan::Ring const ring{&smem.ring};
  Plan::AccReady const acc_ready{&smem.acc};
  Plan::Tmem const tmem{&smem.tmem_slot};
  int const warp = int(cc::arch::warp_idx());
  if (threadIdx.x == 0) {
    Plan::Ring::init(smem.ring);  // per stage: full (1 arrival + the bytes), empty (1 commit)
    Plan::AccReady::init(smem.acc);
    cc::TmaCopy::prefetch_descriptor(tma_a);
    cc::TmaCopy::prefetch_descriptor(tma_b);
  }
  if (warp == 1) tmem.allocate();  // the whole warp; the address lands in tmem_slot
  __syncthreads();                 // barriers and the allocation exist before anyone uses them
  std::uint32_t const acc = tmem.retrieve_ptr();
  int const m0 = int(blockIdx.y) * Plan::block_m, n0 = int(blockIdx.x) * Plan::block_n;
  int const k_tiles = (k + Plan::block_k - 1) / Plan::block_k;

  if (warp == 0 && cc::arch::elect_one_sync()) {  // ---- producer ----
    auto state = cc::make_pipeline_state<Plan::stages>(cc::PipelineUserType::Producer);
    for (int kt = 0; kt < k_tiles; ++kt, state.advance()) {
      ring.producer_acquire(state);    // the MMAs that read this stage have finished
      ring.producer_expect_tx(state);  // arm its full barrier with both tiles' bytes
      cc::TmaCopy::load(tma_a, smem.a.tile(state.index()), ring.producer_get_barrier(state), kt * Plan::block_k, m0);
      cc::TmaCopy::load(tma_b, smem.b.tile(state.index()), ring.producer_get_barrier(state), kt * Plan::block_k, n0);
    }
  } else if (warp == 1 && cc::arch::elect_one_sync()) {  // ---- MMA ----
    auto state = cc::make_pipeline_state<Plan::stages>(cc::PipelineUserType::Consumer);
    for (int kt = 0; kt < k_tiles; ++kt, state.advance()) {
      ring.consumer_wait(state);  // the stage's bytes have landed
      Mma::gemm(acc, smem.a.tile(state.index()), smem.b.tile(state.index()), /*accumulate=*/kt > 0);
      ring.consumer_release(state);  // tcgen05.commit: the stage frees when these MMAs complete
    }
    acc_ready.producer_commit(cc::make_pipeline_state<1>(cc::PipelineUserType::Consumer));  // D is complete
  } else if (warp >= 4) {  // ---- epilogue: tensor memory -> bf16 -> C ----
    auto const state = cc::make_pipeline_state<1>(cc::PipelineUserType::Consumer);
    acc_ready.consumer_wait(state);
    auto const thr = cc::sm100::get_slice<Mma::Accumulator, Plan::Load>(warp, int(cc::arch::lane_idx()));
    for (int i = 0; i < thr.copies; ++i) {
      std::uint32_t r[Plan::Load::registers];
      Plan::Load::load(r, thr.tmem_addr(acc, i));
      cc::arch::fence_view_async_tmem_load();  // the registers hold the values from here
      for (int j = 0; j < Plan::Load::registers; ++j) {
        int const row = m0 + thr.row(i, j), col = n0 + thr.col(i, j);
        if (row < m && col < n) c[std::size_t(row) * n + col] = __float2bfloat16(__uint_as_float(r[j]));
      }
    }
    acc_ready.consumer_release(state, cc::arch::lane_idx());  // this warp's reads are done
  }
  __syncthreads();
  if (warp == 1) tmem.free(acc);  // every read of tensor memory has completed
}

// ---- host ----

void gemm(bf16 const* a, bf16 const* b, bf16* c, int m, int n, int k) {
  if (k <= 0 || k % 8 != 0) throw std::invalid_argument("K must be a positive multiple of 8");
  auto const ku = std::uint64_t(k), row_bytes = ku * sizeof(bf16);  // dims {K, rows}, the row stride in bytes
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
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0.0, magnitude = 0.0;
      for (int p = 0; p < k; ++p) {
        double const product = double(float(ha[std::size_t(i) * k + p])) * double(float(hb[std::size_t(j) * k + p]));
        want += product;
        magnitude += std::fabs(product);
      }
      // C is rounded to bf16 (allowed 2^-7 relative) after an fp32 sum of exact products (1e-4 of |terms|).
      double const got = double(float(hc[std::size_t(i) * n + j]));
      if (!(std::fabs(got - want) <= std::ldexp(std::fabs(want), -7) + 1e-4 * magnitude + 1e-6) && bad++ < 5)
        std::printf("  mismatch at C(%d, %d): got %g, want %g\n", i, j, got, want);
    }
  std::printf("check M=%-5d N=%-5d K=%-5d %s\n", m, n, k, bad == 0 ? "ok" : "FAILED");
  return bad == 0;
}

int main() {
  int devices = 0, major = 0, minor = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) != cudaSuccess || major != 10 || minor != 0) {
    std::printf("umma_tma_gemm: needs an sm_100a GPU (B200, GB200); %s, nothing run\n",
                devices == 0 ? "none found" : "device 0 is another");
    return 0;
  }
  try {
    unsigned const seed = std::random_device{}();
    std::printf("umma_tma_gemm: seed %u\n", seed);
    std::mt19937 rng(seed);
    bool ok = true;
    for (auto [m, n, k] : {std::tuple{1, 8, 8}, std::tuple{200, 136, 72}, std::tuple{511, 257, 1000},
                           std::tuple{1024, 768, 1024}})
      ok &= check(m, n, k, rng);
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "umma_tma_gemm: %s\n", e.what());
    return 1;
  }
}
