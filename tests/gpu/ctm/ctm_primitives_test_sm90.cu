// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The common ctm primitives and cute_cpp::arch forwarders on the H200: mbarrier phases, bulk and
// TMA copies (with the 128B-swizzled smem layout checked), a 2-CTA cluster (DSMEM, remote
// arrive, multicast), ldmatrix/stmatrix fragment layouts, elect, redux, shuffles, conversions,
// atomics, mma.sync, setmaxnreg and PDL ordering.
#include <gtest/gtest.h>

#include "gpu/has_device.hpp"
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <ctm/ctm.hpp>
#include <cute_cpp/arch.hpp>

namespace {

/// The tests' device allocations, poisoned (0xA5 bytes: every output is written by the test or
/// stays visibly wrong) and freed when the test ends (compute-sanitizer's leak check).
struct DeviceAllocs {
  std::vector<void*> blocks;
  DeviceAllocs() = default;
  DeviceAllocs(DeviceAllocs const&) = delete;
  DeviceAllocs& operator=(DeviceAllocs const&) = delete;
  ~DeviceAllocs() {
    for (void* b : blocks) (void)cudaFree(b);
  }
};
template <class T>
cudaError_t device_alloc(DeviceAllocs& mem, T** p, std::size_t bytes) {
  cudaError_t const e = cudaMalloc(reinterpret_cast<void**>(p), bytes);
  if (e != cudaSuccess) return e;
  mem.blocks.push_back(*p);
  return cudaMemset(*p, 0xA5, bytes);
}
using cute_cpp::test::has_device;

// cuTensorMapEncodeTiled from the driver (null when it has none).
PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_entry_point() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q{};
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess)
    return nullptr;
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

// 1. mbarrier phases + bulk copies (shared::cta and shared::cluster forms)
__global__ void k_bulk(float const* src, float* dst, unsigned* phases) {
  __shared__ alignas(128) float buf[512];
  __shared__ alignas(8) std::uint64_t bar;
  if (threadIdx.x == 0) { ctm::mbarrier_init(&bar, 1); ctm::fence_mbarrier_init_release_cluster(); }
  __syncthreads();
  if (threadIdx.x == 0) {
    phases[0] = ctm::mbarrier_test_wait_parity(&bar, 0);  // not complete yet: 0
    (void)ctm::mbarrier_arrive_expect_tx(&bar, 1024);
    ctm::cp_async_bulk_shared_cta_global(buf, src, 1024, &bar);
  }
  ctm::mbarrier_wait_parity(&bar, 0);
  if (threadIdx.x == 0) {
    phases[1] = ctm::mbarrier_test_wait_parity(&bar, 0);  // phase 0 done: 1
    phases[2] = ctm::mbarrier_test_wait_parity(&bar, 1);  // phase 1 pending: 0
    ctm::mbarrier_expect_tx(&bar, 1024);
    (void)ctm::mbarrier_arrive(&bar);
    ctm::cp_async_bulk_shared_cluster_global(buf + 256, src + 256, 1024, &bar);
  }
  ctm::mbarrier_wait_parity(&bar, 1);
  __syncthreads();
  for (int i = threadIdx.x; i < 512; i += blockDim.x) dst[i] = buf[i];
  ctm::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    ctm::cp_async_bulk_global_shared_cta(dst + 512, buf, 2048);
    ctm::cp_async_bulk_commit_group();
    ctm::cp_async_bulk_wait_group<0>();
  }
}

// 2. TMA 2D load (128B swizzle) and store, smem layout checked against the canonical K-major offset
__global__ void k_tma(const __grid_constant__ CUtensorMap tmap_in, const __grid_constant__ CUtensorMap tmap_out,
                      std::uint16_t const* src, unsigned* bad) {
  __shared__ alignas(1024) std::uint16_t tile[64 * 64];
  __shared__ alignas(8) std::uint64_t bar;
  if (threadIdx.x == 0) {
    ctm::prefetch_tensormap(&tmap_in);
    ctm::mbarrier_init(&bar, 1);
    ctm::fence_mbarrier_init_release_cluster();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    (void)ctm::mbarrier_arrive_expect_tx(&bar, 64 * 64 * 2);
    ctm::cp_async_bulk_tensor_2d_shared_cta_global(tile, &tmap_in, 64, 64, &bar);  // tile at col 64, row 64
  }
  ctm::mbarrier_wait_parity(&bar, 0);
  unsigned nbad = 0;
  for (unsigned i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
    unsigned r = i / 64, c = i % 64;
    unsigned lin = r * 128 + c * 2;
    unsigned sw = lin ^ (((lin >> 7) & 7) << 4);
    if (tile[sw / 2] != src[(64 + r) * 256 + 64 + c]) ++nbad;
  }
  atomicAdd(bad, nbad);
  ctm::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    ctm::cp_async_bulk_tensor_2d_global_shared_cta(&tmap_out, 0, 0, tile);
    ctm::cp_async_bulk_commit_group();
    ctm::cp_async_bulk_wait_group_read<0>();
    ctm::cp_async_bulk_wait_group<0>();
  }
}

// 3. cluster of 2: DSMEM exchange, remote mbarrier arrive, multicast bulk copy, cluster registers
__global__ void __cluster_dims__(2, 1, 1) k_cluster(float const* src, float* out, unsigned* info) {
  __shared__ alignas(128) float buf[256];
  __shared__ alignas(8) std::uint64_t bar, bar2;
  __shared__ unsigned cell;
  unsigned rank = cute_cpp::arch::block_rank_in_cluster();
  if (threadIdx.x == 0) {
    ctm::mbarrier_init(&bar, 1);
    ctm::mbarrier_init(&bar2, 1);
    ctm::fence_mbarrier_init_release_cluster();
  }
  cute_cpp::arch::cluster_arrive_relaxed();
  cute_cpp::arch::cluster_wait();
  if (threadIdx.x == 0) {
    (void)ctm::mbarrier_arrive_expect_tx(&bar, 1024);
    std::uint32_t peer = ctm::mapa_shared_cluster_u32(&cell, rank ^ 1u);
    ctm::st_shared_cluster_u32(peer, 100u + rank);
    cute_cpp::arch::mbarrier_arrive(&bar2, rank ^ 1u);  // remote arrive on the peer's bar2
  }
  cute_cpp::arch::cluster_sync();  // both barriers have their expect_tx before the multicast
  if (rank == 0 && threadIdx.x == 0) ctm::cp_async_bulk_shared_cluster_global_multicast_cluster(buf, src, 1024, &bar, 0x3);
  ctm::mbarrier_wait_parity(&bar, 0);
  while (!ctm::mbarrier_try_wait_parity_acquire_cluster(&bar2, 0)) {}
  for (int i = threadIdx.x; i < 256; i += blockDim.x) out[rank * 256 + i] = buf[i];
  if (threadIdx.x == 0) {
    info[rank * 4 + 0] = cell;
    info[rank * 4 + 1] = ctm::cluster_nctarank();
    info[rank * 4 + 2] = ctm::is_explicit_cluster();
    info[rank * 4 + 3] = cute_cpp::arch::block_in_cluster_dim().x;
  }
  cute_cpp::arch::cluster_sync();
}

// 4. ldmatrix / stmatrix: x1 semantics and x4 (+trans) round trips
__global__ void k_matrix(unsigned* bad) {
  __shared__ alignas(128) std::uint16_t m[4][8][8];
  __shared__ alignas(128) std::uint16_t m2[4][8][8];
  unsigned l = threadIdx.x;
  for (unsigned i = l; i < 256; i += 32) (&m[0][0][0])[i] = std::uint16_t(i * 3 + 1);
  __syncwarp();
  unsigned nbad = 0;
  std::uint32_t d;
  ctm::ldmatrix_x1(d, &m[0][l % 8][0]);
  // thread l holds row l/4, columns 2*(l%4) and +1 (low half first)
  if ((d & 0xffff) != m[0][l / 4][2 * (l % 4)] || (d >> 16) != m[0][l / 4][2 * (l % 4) + 1]) ++nbad;
  ctm::ldmatrix_x1_trans(d, &m[0][l % 8][0]);
  if ((d & 0xffff) != m[0][2 * (l % 4)][l / 4] || (d >> 16) != m[0][2 * (l % 4) + 1][l / 4]) ++nbad;
  std::uint32_t r0, r1, r2, r3;
  ctm::ldmatrix_x4(r0, r1, r2, r3, &m[l / 8][l % 8][0]);
  ctm::stmatrix_x4(&m2[l / 8][l % 8][0], r0, r1, r2, r3);
  __syncwarp();
  for (unsigned i = l; i < 256; i += 32) if ((&m2[0][0][0])[i] != (&m[0][0][0])[i]) ++nbad;
  __syncwarp();
  ctm::ldmatrix_x4_trans(r0, r1, r2, r3, &m[l / 8][l % 8][0]);
  ctm::stmatrix_x4_trans(&m2[l / 8][l % 8][0], r0, r1, r2, r3);
  __syncwarp();
  for (unsigned i = l; i < 256; i += 32) if ((&m2[0][0][0])[i] != (&m[0][0][0])[i]) ++nbad;
  std::uint32_t s0, s1;
  ctm::ldmatrix_x2(s0, s1, &m[(l / 8) % 2][l % 8][0]);
  std::uint32_t t0, t1, t2, t3;
  ctm::ldmatrix_x4(t0, t1, t2, t3, &m[l / 8][l % 8][0]);
  if (s0 != t0 || s1 != t1) ++nbad;
  atomicAdd(bad, nbad);
}

// 5. warp ops, elect, conversions, atomics
__global__ void k_warp(unsigned* u, float* f, std::uint32_t* red_bf16) {
  unsigned l = threadIdx.x % 32;
  bool e = cute_cpp::arch::elect_one_sync();
  atomicAdd(&u[0], e ? 1u : 0u);                                // 1 per warp
  u[1 + threadIdx.x / 32] = ctm::redux_sync_add_u32(l);         // 496
  int mx = ctm::redux_sync_max_s32(-int(l) - 5);
  if (l == 0) u[8] = unsigned(mx);      // -5
  f[l] = cute_cpp::arch::warp_reduction_sum_f32(float(l));      // 496
  f[32 + l] = cute_cpp::arch::warp_reduction_max_f32(float(l) * (l % 2 ? -1.f : 1.f));  // 30
  f[64 + l] = ctm::shfl_sync_idx_b32(float(l), 7u);             // 7
  if (l == 0) {
    u[9] = ctm::cvt_rn_satfinite_e4m3x2_f32(1.0f, -2.0f);       // hi 1.0 = 0x38, lo -2.0 = 0xC0 -> 0x38C0
    u[10] = ctm::cvt_rn_f16x2_f32(1.0f, 2.0f);                  // 0x3C004000
    u[11] = cute_cpp::arch::cvt_f16x2_f32(1.0f, 2.0f);           // x low: 0x40003C00
    u[12] = ctm::cvt_rn_f16x2_e4m3x2(0x38C0);                   // 0x3C00C000
    u[13] = ctm::cvt_rn_bf16x2_f32(1.0f, -1.0f);                // 0x3F80BF80
    float2 p = cute_cpp::arch::fma_packed_f32x2(make_float2(2.f, 3.f), make_float2(4.f, 5.f), make_float2(1.f, 1.f));
    f[96] = p.x; f[97] = p.y;                                    // 9, 16
  }
  ctm::red_global_add_f32(&f[98], 1.0f);                          // 64 threads -> 64
  ctm::red_global_add_noftz_bf16x2(&red_bf16[0], 0x3F803F80u);    // +1,+1 each: 64, 64
  ctm::red_global_max_noftz_v2_bf16x2(&red_bf16[2], 0x40000000u | 0x3F80u, 0x40400000u); // max
  if (threadIdx.x == 0) u[14] = ctm::atom_global_cas_b32(&u[15], 0u, 77u);  // old 0, new 77
  ctm::red_global_max_s32(reinterpret_cast<std::int32_t*>(&u[16]), int(threadIdx.x));  // 63
}

// 6. mma.sync bf16 m16n8k16 and fp8 m16n8k32 against a reference
__global__ void k_mma(float* out) {
  unsigned l = threadIdx.x, g = l / 4, q = l % 4;
  // A[m][k] = (m + k) % 3 - 1, B[k][n] = (k * 2 + n) % 3 - 1 (exact in bf16 and e4m3)
  auto A = [](int m, int k) { return float((m + k) % 3 - 1); };
  auto B = [](int k, int n) { return float((k * 2 + n) % 3 - 1); };
  auto bf = [](float x) { return std::uint32_t(__float_as_uint(x) >> 16); };
  auto pack = [&](float lo, float hi) { return bf(lo) | (bf(hi) << 16); };
  std::uint32_t a[4] = {pack(A(g, 2 * q), A(g, 2 * q + 1)), pack(A(g + 8, 2 * q), A(g + 8, 2 * q + 1)),
                        pack(A(g, 2 * q + 8), A(g, 2 * q + 9)), pack(A(g + 8, 2 * q + 8), A(g + 8, 2 * q + 9))};
  std::uint32_t b[2] = {pack(B(2 * q, g), B(2 * q + 1, g)), pack(B(2 * q + 8, g), B(2 * q + 9, g))};
  float c[4] = {0, 0, 0, 0}, d[4];
  ctm::mma_m16n8k16_row_col_f32_bf16_bf16_f32(d, a, b, c);
  // d0: (g, 2q), d1: (g, 2q+1), d2: (g+8, 2q), d3: (g+8, 2q+1)
  for (int i = 0; i < 4; ++i) out[(g + 8 * (i / 2)) * 8 + 2 * q + (i % 2)] = d[i];
  // fp8: bytes, A fragment a[i] = 4 consecutive k: rows g/g+8, k = 4q..4q+3 (+16)
  auto e8 = [](float x) -> std::uint32_t { return x == 0 ? 0u : (x > 0 ? 0x38u : 0xB8u); };
  auto p4 = [&](auto fn, int r, int k0) { return e8(fn(r, k0)) | (e8(fn(r, k0 + 1)) << 8) | (e8(fn(r, k0 + 2)) << 16) | (e8(fn(r, k0 + 3)) << 24); };
  auto Bt = [&](int n, int k) { return B(k, n); };
  std::uint32_t a8[4] = {p4(A, g, 4 * q), p4(A, g + 8, 4 * q), p4(A, g, 4 * q + 16), p4(A, g + 8, 4 * q + 16)};
  std::uint32_t b8[2] = {p4(Bt, g, 4 * q), p4(Bt, g, 4 * q + 16)};
  ctm::mma_m16n8k32_row_col_f32_e4m3_e4m3_f32(d, a8, b8, c);
  for (int i = 0; i < 4; ++i) out[128 + (g + 8 * (i / 2)) * 8 + 2 * q + (i % 2)] = d[i];
}

// 7. setmaxnreg in a warp-specialised block, and PDL
__global__ void __launch_bounds__(384, 1) k_setmaxnreg(unsigned* out) {
  if (cute_cpp::arch::warp_idx() < 4) { cute_cpp::arch::setmaxregister_decrease<40>(); }
  else { cute_cpp::arch::setmaxregister_increase<232>(); }
  atomicAdd(out, 1u);
}
__global__ void k_pdl_first(unsigned* flag) {
  __nanosleep(200000);
  *(volatile unsigned*)flag = 42u;
  __threadfence();
  ctm::griddepcontrol_launch_dependents();
}
__global__ void k_pdl_second(unsigned const* flag, unsigned* seen) {
  ctm::griddepcontrol_wait();
  *seen = *(volatile unsigned const*)flag;
}


// 8. TMA 2D load without swizzle, multicast into a 2-CTA cluster, and the tensor-map patch path
__global__ void __cluster_dims__(2, 1, 1) k_tma_multicast(const __grid_constant__ CUtensorMap tmap, std::uint16_t* out) {
  __shared__ alignas(1024) std::uint16_t tile[64 * 64];
  __shared__ alignas(8) std::uint64_t bar;
  unsigned rank = ctm::cluster_ctarank();
  if (threadIdx.x == 0) { ctm::mbarrier_init(&bar, 1); ctm::fence_mbarrier_init_release_cluster(); }
  cute_cpp::arch::cluster_sync();
  if (threadIdx.x == 0) {
    (void)ctm::mbarrier_arrive_expect_tx(&bar, 64 * 64 * 2);
    // each CTA loads half the rows and multicasts them to both CTAs
    ctm::cp_async_bulk_tensor_2d_shared_cluster_global_multicast_cluster(tile + rank * 32 * 64, &tmap, 0, int(rank) * 32, &bar, 0x3);
  }
  ctm::mbarrier_wait_parity(&bar, 0);
  for (unsigned i = threadIdx.x; i < 64 * 64; i += blockDim.x) out[rank * 4096 + i] = tile[i];
  cute_cpp::arch::cluster_sync();
}

__global__ void k_tensormap_patch(const __grid_constant__ CUtensorMap tmap, CUtensorMap* gmem_tmap, void const* new_base,
                                  std::uint16_t* out) {
  __shared__ alignas(128) CUtensorMap smem_tmap;
  __shared__ alignas(128) std::uint16_t tile[32 * 64];
  __shared__ alignas(8) std::uint64_t bar;
  if (threadIdx.x < 32) {
    if (threadIdx.x == 0) {
      smem_tmap = tmap;
      ctm::tensormap_replace_tile_global_address_shared_cta(&smem_tmap, new_base);
      ctm::tensormap_replace_tile_global_dim_shared_cta<1>(&smem_tmap, 32u);  // fewer rows
    }
    __syncwarp();
    ctm::tensormap_cp_fenceproxy_global_shared_cta_tensormap_generic_release_gpu(gmem_tmap, &smem_tmap);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ctm::fence_proxy_tensormap_generic_acquire_gpu(gmem_tmap);
    ctm::mbarrier_init(&bar, 1);
    ctm::fence_mbarrier_init_release_cluster();
    (void)ctm::mbarrier_arrive_expect_tx(&bar, 32 * 64 * 2);
    ctm::cp_async_bulk_tensor_2d_shared_cta_global(tile, gmem_tmap, 0, 0, &bar);
  }
  __syncthreads();
  ctm::mbarrier_wait_parity(&bar, 0);
  for (unsigned i = threadIdx.x; i < 32 * 64; i += blockDim.x) out[i] = tile[i];
}

// 9. cp.async zero-fill and st.async with mbarrier completion in a cluster
__global__ void k_cp_async(float const* src, float* out) {
  __shared__ alignas(16) float buf[32 * 4];
  unsigned t = threadIdx.x;
  ctm::cp_async_cg_shared_global(&buf[t * 4], src + t * 4, t % 2 ? 16u : 8u);  // odd: all 4, even: 2 then zeros
  ctm::cp_async_commit_group();
  ctm::cp_async_wait_group<0>();
  __syncthreads();
  for (int i = 0; i < 4; ++i) out[t * 4 + i] = buf[t * 4 + i];
}

__global__ void __cluster_dims__(2, 1, 1) k_st_async(unsigned* out) {
  __shared__ alignas(16) std::uint32_t cell[4];
  __shared__ std::uint32_t cnt;
  __shared__ alignas(8) std::uint64_t bar;
  unsigned rank = ctm::cluster_ctarank();
  if (threadIdx.x == 0) {
    cnt = 100u;
    ctm::mbarrier_init(&bar, 1);
    ctm::fence_mbarrier_init_release_cluster();
    (void)ctm::mbarrier_arrive_expect_tx(&bar, 16 + 4);
  }
  cute_cpp::arch::cluster_sync();
  if (threadIdx.x == 0) {
    std::uint32_t peer = ctm::mapa_shared_cluster_u32(&cell[0], rank ^ 1u), peer_bar = ctm::mapa_shared_cluster_u32(&bar, rank ^ 1u);
    ctm::st_async_shared_cluster_mbarrier_complete_tx_bytes_v4_b32(peer, 10u + rank, 20u + rank, 30u + rank, 40u + rank, peer_bar);
    ctm::red_async_relaxed_cluster_shared_cluster_mbarrier_complete_tx_bytes_add_u32(
        ctm::mapa_shared_cluster_u32(&cnt, rank ^ 1u), 5u + rank, peer_bar);
    out[8 + rank] = ctm::getctarank_shared_cluster_u32(peer);
  }
  ctm::mbarrier_wait_parity(&bar, 0);
  if (threadIdx.x < 4) out[rank * 4 + threadIdx.x] = cell[threadIdx.x];
  if (threadIdx.x == 0) out[10 + rank] = cnt;
  cute_cpp::arch::cluster_sync();
}

TEST(CtmPrimitivesGpu, MbarrierPhasesAndBulkCopies) {
  DeviceAllocs mem;
  if (!has_device()) GTEST_SKIP() << "no GPU";
    std::vector<float> h(512); for (int i = 0; i < 512; ++i) h[i] = float(i) * 0.5f;
  float *src, *dst; unsigned* ph; device_alloc(mem, &src, 2048); device_alloc(mem, &dst, 4096); device_alloc(mem, &ph, 16);
  cudaMemcpy(src, h.data(), 2048, cudaMemcpyHostToDevice);
  k_bulk<<<1, 128>>>(src, dst, ph);
  cudaError_t e = cudaDeviceSynchronize();
  std::vector<float> o(1024); unsigned p[3]; cudaMemcpy(o.data(), dst, 4096, cudaMemcpyDeviceToHost); cudaMemcpy(p, ph, 12, cudaMemcpyDeviceToHost);
  bool ok = e == cudaSuccess && p[0] == 0 && p[1] == 1 && p[2] == 0;
  for (int i = 0; i < 512; ++i) ok &= o[i] == h[i] && o[512 + i] == h[i];
  EXPECT_TRUE(ok) << "mbarrier phases + cp.async.bulk g2s (shared::cta, shared::cluster) + s2g";
}

TEST(CtmPrimitivesGpu, TmaLoadStoreSwizzle128) {
  DeviceAllocs mem;
  if (!has_device()) GTEST_SKIP() << "no GPU";
  PFN_cuTensorMapEncodeTiled_v12000 const encode = encode_tiled_entry_point();
  ASSERT_NE(encode, nullptr);
  std::vector<std::uint16_t> h(256 * 256); for (size_t i = 0; i < h.size(); ++i) h[i] = std::uint16_t(i * 7 + 3);
  std::uint16_t *src, *dst; unsigned* bad; device_alloc(mem, &src, h.size() * 2); device_alloc(mem, &dst, 64 * 64 * 2); device_alloc(mem, &bad, 4); cudaMemset(bad, 0, 4);
  cudaMemcpy(src, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
  CUtensorMap tin, tout;
  cuuint64_t dims[2] = {256, 256}, strides[1] = {512}; cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
  CUresult r1 = encode(&tin, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, src, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                       CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  cuuint64_t dims2[2] = {64, 64}, strides2[1] = {128};
  CUresult r2 = encode(&tout, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, dst, dims2, strides2, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                       CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  k_tma<<<1, 128>>>(tin, tout, src, bad);
  cudaError_t e = cudaDeviceSynchronize();
  unsigned nb = 1; cudaMemcpy(&nb, bad, 4, cudaMemcpyDeviceToHost);
  std::vector<std::uint16_t> o(64 * 64); cudaMemcpy(o.data(), dst, o.size() * 2, cudaMemcpyDeviceToHost);
  bool ok = r1 == CUDA_SUCCESS && r2 == CUDA_SUCCESS && e == cudaSuccess && nb == 0;
  for (int r = 0; r < 64; ++r) for (int c = 0; c < 64; ++c) ok &= o[r * 64 + c] == h[(64 + r) * 256 + 64 + c];
  EXPECT_TRUE(ok) << "TMA 2D load (128B swizzle, layout = canonical K-major SW128) + TMA 2D store";
}

TEST(CtmPrimitivesGpu, ClusterDsmemRemoteArriveMulticast) {
  DeviceAllocs mem;
  if (!has_device()) GTEST_SKIP() << "no GPU";
    std::vector<float> h(256); for (int i = 0; i < 256; ++i) h[i] = float(i) + 0.25f;
  float *src, *out; unsigned* info; device_alloc(mem, &src, 1024); device_alloc(mem, &out, 2048); device_alloc(mem, &info, 32);
  cudaMemcpy(src, h.data(), 1024, cudaMemcpyHostToDevice); cudaMemset(out, 0, 2048);
  k_cluster<<<2, 128>>>(src, out, info);
  cudaError_t e = cudaDeviceSynchronize();
  std::vector<float> o(512); unsigned in[8]; cudaMemcpy(o.data(), out, 2048, cudaMemcpyDeviceToHost); cudaMemcpy(in, info, 32, cudaMemcpyDeviceToHost);
  bool ok = e == cudaSuccess && in[0] == 101 && in[4] == 100 && in[1] == 2 && in[5] == 2 && in[2] == 1 && in[3] == 2;
  for (int i = 0; i < 256; ++i) ok &= o[i] == h[i] && o[256 + i] == h[i];
  EXPECT_TRUE(ok) << "cluster of 2: DSMEM st.shared::cluster, remote mbarrier arrive, multicast bulk copy, cluster sregs";
}

TEST(CtmPrimitivesGpu, LdmatrixStmatrix) {
  DeviceAllocs mem;
  if (!has_device()) GTEST_SKIP() << "no GPU";
    unsigned* bad; device_alloc(mem, &bad, 4); cudaMemset(bad, 0, 4);
  k_matrix<<<1, 32>>>(bad);
  cudaError_t e = cudaDeviceSynchronize(); unsigned nb = 1; cudaMemcpy(&nb, bad, 4, cudaMemcpyDeviceToHost);
  EXPECT_TRUE(e == cudaSuccess && nb == 0) << "ldmatrix x1/x1.trans fragment layout, x2 = first half of x4, stmatrix x4 (+trans) round trips";
}

TEST(CtmPrimitivesGpu, WarpOpsConversionsAtomics) {
  DeviceAllocs mem;
  if (!has_device()) GTEST_SKIP() << "no GPU";
  unsigned* u; float* f; std::uint32_t* rb; device_alloc(mem, &u, 128); device_alloc(mem, &f, 512); device_alloc(mem, &rb, 16);
  cudaMemset(u, 0, 128); cudaMemset(f, 0, 512);
  std::uint32_t init[4] = {0x42000000u /*bf16 32, 0*/, 0, 0x3F803F80u, 0x3F803F80u}; cudaMemcpy(rb, init, 16, cudaMemcpyHostToDevice);
  k_warp<<<1, 64>>>(u, f, rb);
  cudaError_t e = cudaDeviceSynchronize();
  unsigned hu[17]; float hf[99]; std::uint32_t hr[4];
  cudaMemcpy(hu, u, sizeof hu, cudaMemcpyDeviceToHost); cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost); cudaMemcpy(hr, rb, 16, cudaMemcpyDeviceToHost);
  EXPECT_TRUE(e == cudaSuccess && hu[0] == 2) << "elect.sync: one lane per warp";
  EXPECT_TRUE(hu[1] == 496 && hu[2] == 496 && int(hu[8]) == -5 && hf[0] == 496.f && hf[31] == 496.f && hf[32] == 30.f && hf[64] == 7.f) << "redux.sync add/max, warp_reduction_sum/max_f32, shfl idx";
  EXPECT_TRUE(hu[9] == 0x38C0 && hu[10] == 0x3C004000u && hu[11] == 0x40003C00u && hu[12] == 0x3C00C000u && hu[13] == 0x3F80BF80u) << "cvt: e4m3x2 (hi first), f16x2 (hi first), arch::cvt_f16x2_f32 (x low), e4m3x2->f16x2, bf16x2";
  EXPECT_TRUE(hf[96] == 9.f && hf[97] == 16.f) << "fma_packed_f32x2 (sm_90a fallback)";
  EXPECT_TRUE(hf[98] == 64.f && hr[0] == 0x42C04280u && hr[1] == 0u && hr[2] == 0x40003F80u && hr[3] == 0x40403F80u &&
              hu[14] == 0 && hu[15] == 77 && hu[16] == 63)
      << "red add f32, red add bf16x2 (32+64, 0+64), red max v2 bf16x2, atom cas, red max s32";
}

TEST(CtmPrimitivesGpu, MmaSync) {
  DeviceAllocs mem;
  if (!has_device()) GTEST_SKIP() << "no GPU";
  float* out; device_alloc(mem, &out, 256 * 4);
  k_mma<<<1, 32>>>(out);
  cudaError_t e = cudaDeviceSynchronize(); float o[256]; cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  bool ok16 = e == cudaSuccess, ok32 = e == cudaSuccess;
  for (int m = 0; m < 16; ++m) for (int n = 0; n < 8; ++n) {
    float r16 = 0, r32 = 0;
    for (int k = 0; k < 32; ++k) { float p = float((m + k) % 3 - 1) * float((k * 2 + n) % 3 - 1); if (k < 16) r16 += p; r32 += p; }
    ok16 &= o[m * 8 + n] == r16; ok32 &= o[128 + m * 8 + n] == r32;
  }
  EXPECT_TRUE(ok16) << "mma.sync m16n8k16 bf16 (fragment layout)";
  EXPECT_TRUE(ok32) << "mma.sync m16n8k32 e4m3 (fragment layout)";
}

TEST(CtmPrimitivesGpu, SetmaxnregAndPdl) {
  DeviceAllocs mem;
  if (!has_device()) GTEST_SKIP() << "no GPU";
    unsigned* c; device_alloc(mem, &c, 4); cudaMemset(c, 0, 4);
  k_setmaxnreg<<<2, 384>>>(c);
  cudaError_t e = cudaDeviceSynchronize(); unsigned n = 0; cudaMemcpy(&n, c, 4, cudaMemcpyDeviceToHost);
  cudaFuncAttributes attr{}; cudaFuncGetAttributes(&attr, k_setmaxnreg);
  EXPECT_TRUE(e == cudaSuccess && n == 768) << "setmaxnreg dec 40 / inc 232 in a 384-thread block runs";
  RecordProperty("k_setmaxnreg_regs_at_launch", attr.numRegs);
  unsigned *flag, *seen; device_alloc(mem, &flag, 4); device_alloc(mem, &seen, 4); cudaMemset(flag, 0, 4); cudaMemset(seen, 0, 4);
  cudaStream_t s; cudaStreamCreate(&s);
  k_pdl_first<<<1, 32, 0, s>>>(flag);
  cudaLaunchConfig_t cfg{}; cfg.gridDim = 1; cfg.blockDim = 32; cfg.stream = s;
  cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization; at[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = at; cfg.numAttrs = 1;
  cudaError_t le = cudaLaunchKernelEx(&cfg, k_pdl_second, (unsigned const*)flag, seen);
  e = cudaStreamSynchronize(s); unsigned sv = 0; cudaMemcpy(&sv, seen, 4, cudaMemcpyDeviceToHost);
  EXPECT_TRUE(le == cudaSuccess && e == cudaSuccess && sv == 42) << "PDL: griddepcontrol.launch_dependents / wait ordering";
}

TEST(CtmPrimitivesGpu, TmaNoSwizzleMulticastAndTensormapPatch) {
  DeviceAllocs mem;
  if (!has_device()) GTEST_SKIP() << "no GPU";
  PFN_cuTensorMapEncodeTiled_v12000 const encode = encode_tiled_entry_point();
  ASSERT_NE(encode, nullptr);
  std::vector<std::uint16_t> h(64 * 64), h2(64 * 64);
  for (size_t i = 0; i < h.size(); ++i) { h[i] = std::uint16_t(i * 5 + 1); h2[i] = std::uint16_t(i * 11 + 7); }
  std::uint16_t *src, *src2, *out; CUtensorMap* gmap;
  device_alloc(mem, &src, 8192); device_alloc(mem, &src2, 8192); device_alloc(mem, &out, 16384); device_alloc(mem, &gmap, sizeof(CUtensorMap));
  cudaMemcpy(src, h.data(), 8192, cudaMemcpyHostToDevice); cudaMemcpy(src2, h2.data(), 8192, cudaMemcpyHostToDevice);
  CUtensorMap half_rows;
  cuuint64_t dims[2] = {64, 64}, strides[1] = {128}; cuuint32_t box[2] = {64, 32}, es[2] = {1, 1};
  ASSERT_EQ(encode(&half_rows, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, src, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE), CUDA_SUCCESS);
  k_tma_multicast<<<2, 128>>>(half_rows, out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<std::uint16_t> o(8192); cudaMemcpy(o.data(), out, 16384, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int cta = 0; cta < 2; ++cta) for (int i = 0; i < 4096; ++i) bad += o[cta * 4096 + i] != h[i];
  EXPECT_EQ(bad, 0) << "TMA multicast: both CTAs hold the whole 64x64 tile (no swizzle)";
  k_tensormap_patch<<<1, 128>>>(half_rows, gmap, src2, out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaMemcpy(o.data(), out, 4096, cudaMemcpyDeviceToHost);
  bad = 0;
  for (int i = 0; i < 2048; ++i) bad += o[i] != h2[i];
  EXPECT_EQ(bad, 0) << "tensormap.replace (address, dim) + cp_fenceproxy + acquire: the load reads the new tensor";
}

TEST(CtmPrimitivesGpu, CpAsyncZeroFillAndStAsync) {
  DeviceAllocs mem;
  if (!has_device()) GTEST_SKIP() << "no GPU";
  std::vector<float> h(128); for (int i = 0; i < 128; ++i) h[i] = float(i) + 1.f;
  float *src, *out; device_alloc(mem, &src, 512); device_alloc(mem, &out, 512);
  cudaMemcpy(src, h.data(), 512, cudaMemcpyHostToDevice);
  k_cp_async<<<1, 32>>>(src, out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> o(128); cudaMemcpy(o.data(), out, 512, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 32; ++t) for (int i = 0; i < 4; ++i) bad += o[t * 4 + i] != ((t % 2 || i < 2) ? h[t * 4 + i] : 0.f);
  EXPECT_EQ(bad, 0) << "cp.async.cg src-size: the bytes past src-size are zero";
  unsigned* u; device_alloc(mem, &u, 64); cudaMemset(u, 0, 64);
  k_st_async<<<2, 64>>>(u);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  unsigned hu[12]; cudaMemcpy(hu, u, 48, cudaMemcpyDeviceToHost);
  // CTA 0 holds what CTA 1 stored (11, 21, 31, 41; counter 100 + 6) and the reverse; getctarank
  // names the peer
  EXPECT_TRUE(hu[0] == 11 && hu[1] == 21 && hu[2] == 31 && hu[3] == 41 && hu[4] == 10 && hu[5] == 20 && hu[6] == 30 &&
              hu[7] == 40 && hu[8] == 1 && hu[9] == 0 && hu[10] == 106 && hu[11] == 105)
      << "st.async / red.async with mbarrier completion, getctarank: " << hu[0] << " " << hu[4] << " " << hu[8] << " "
      << hu[9] << " " << hu[10] << " " << hu[11];
}

}  // namespace
