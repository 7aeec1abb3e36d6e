// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// wgmma on the H200, for each input kind, swizzle mode and operand major-ness, A from shared
// memory and from registers: one 64x64 tile, K = 128 bytes (several k-steps, so the descriptor's
// start-address advance is exercised), against an exact integer reference. The shared-memory
// tiles are written at the byte offsets of the canonical layouts that ctm::wgmma_desc_canonical
// describes, so a wrong LBO, SBO, swizzle code or base offset gives wrong numbers.
#include <gtest/gtest.h>

#include "gpu/has_device.hpp"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <ctm/ctm.hpp>

namespace {

using ctm::DataType;
using ctm::WgmmaMajor;
using ctm::WgmmaSwizzle;

constexpr int M = 64, N = 64, K_BYTES = 128;  // K extent in bytes (64 bf16, 128 fp8, 32 tf32)

// Byte offset of element (mn, k) in a tile with MN extent `mn_ext`, canonical layout.
__host__ __device__ inline unsigned swz(unsigned linear, unsigned S) {
  if (S == 16) return linear;
  unsigned mask = S / 16 - 1;
  return linear ^ (((linear >> 7) & mask) << 4);
}
__host__ __device__ inline unsigned offset(WgmmaMajor major, WgmmaSwizzle sw, unsigned eb, unsigned mn_ext, unsigned mn, unsigned k) {
  unsigned S = ctm::wgmma_swizzle_bytes(sw);
  if (major == WgmmaMajor::k) {
    unsigned kb = k * eb;
    if (sw == WgmmaSwizzle::none)
      return (mn / 8) * 128 + (kb / 16) * (mn_ext * 16) + (mn % 8) * 16 + kb % 16;
    unsigned col = kb / S, kk = kb % S;
    return col * (mn_ext * S) + (mn / 8) * (8 * S) + swz((mn % 8) * S + kk, S);
  } else {
    unsigned mb = mn * eb;
    if (sw == WgmmaSwizzle::none)
      return (mb / 16) * 128 + (k / 8) * (mn_ext * eb * 8) + (k % 8) * 16 + mb % 16;
    unsigned col = mb / S, mm = mb % S;
    return col * (8 * S) + (k / 8) * (mn_ext * eb * 8) + swz((k % 8) * S + mm, S);
  }
}

template <DataType T> struct Elem;
template <> struct Elem<DataType::bf16> { static constexpr unsigned bytes = 2; };
template <> struct Elem<DataType::e4m3> { static constexpr unsigned bytes = 1; };
template <> struct Elem<DataType::tf32> { static constexpr unsigned bytes = 4; };
template <> struct Elem<DataType::s8> { static constexpr unsigned bytes = 1; };

// A: M x K values (small ints), B: N x K. Encoded bytes come from host (raw element bits).
template <DataType T, DataType D, WgmmaMajor MA, WgmmaSwizzle SA, WgmmaMajor MB, WgmmaSwizzle SB, bool RegA>
__global__ void __launch_bounds__(128, 1) kernel(unsigned char const* a_raw, unsigned char const* b_raw, float* out) {
  constexpr unsigned eb = Elem<T>::bytes, KS = unsigned(ctm::detail::wgmma_k(T)), KE = K_BYTES / eb;
  __shared__ alignas(1024) unsigned char sa[M * K_BYTES];
  __shared__ alignas(1024) unsigned char sb[N * K_BYTES];
  for (unsigned i = threadIdx.x; i < M * KE; i += 128) {
    unsigned m = i / KE, k = i % KE;
    memcpy(sa + offset(MA, SA, eb, M, m, k), a_raw + i * eb, eb);
  }
  for (unsigned i = threadIdx.x; i < N * KE; i += 128) {
    unsigned n = i / KE, k = i % KE;
    memcpy(sb + offset(MB, SB, eb, N, n, k), b_raw + i * eb, eb);
  }
  ctm::fence_proxy_async_shared_cta();
  __syncthreads();
  using Acc = ctm::wgmma_accumulator_t<N, D>;
  Acc acc{};
  unsigned w = threadIdx.x / 32, l = threadIdx.x % 32;
  ctm::wgmma_fence();
  for (unsigned ks = 0; ks < KE / KS; ++ks) {
    unsigned k0 = ks * KS;
    std::uint64_t db = ctm::wgmma_desc_encode(ctm::wgmma_desc_canonical(
        ctm::cvta_to_shared_u32(sb) + offset(MB, SB, eb, N, 0, k0), MB, SB, eb, N));
    if constexpr (RegA) {
      // mma.sync-style A fragment: rows w*16 + l/4 (+8), k pairs (l%4)*2 (+8)
      std::uint32_t a[4];
      unsigned r = w * 16 + l / 4, kk = k0 + (l % 4) * 2;
      auto ld = [&](unsigned rr, unsigned kq) {
        std::uint16_t lo, hi;
        memcpy(&lo, sa + offset(MA, SA, eb, M, rr, kq), 2);
        memcpy(&hi, sa + offset(MA, SA, eb, M, rr, kq + 1), 2);
        return std::uint32_t(lo) | (std::uint32_t(hi) << 16);
      };
      a[0] = ld(r, kk); a[1] = ld(r + 8, kk); a[2] = ld(r, kk + 8); a[3] = ld(r + 8, kk + 8);
      ctm::wgmma_mma_async<N, D, T, T, WgmmaMajor::k, MB>(acc, a, db, ks > 0);
    } else {
      std::uint64_t da = ctm::wgmma_desc_encode(ctm::wgmma_desc_canonical(
          ctm::cvta_to_shared_u32(sa) + offset(MA, SA, eb, M, 0, k0), MA, SA, eb, M));
      ctm::wgmma_mma_async<N, D, T, T, MA, MB>(acc, da, db, ks > 0);
    }
  }
  ctm::wgmma_commit_group();
  ctm::wgmma_wait_group<0>();
  for (unsigned i = 0; i < N / 2; ++i) {
    unsigned col = (i / 4) * 8 + (l % 4) * 2 + (i % 2);
    unsigned row = w * 16 + l / 4 + 8 * ((i / 2) % 2);
    out[row * N + col] = float(acc[i]);
  }
}

static void encode(DataType t, int v, unsigned char* dst) {
  if (t == DataType::bf16) { float f = float(v); std::uint32_t u; memcpy(&u, &f, 4); std::uint16_t h = u >> 16; memcpy(dst, &h, 2); }
  else if (t == DataType::tf32) { float f = float(v); memcpy(dst, &f, 4); }
  else if (t == DataType::s8) { signed char c = v; memcpy(dst, &c, 1); }
  else {  // e4m3: exact small ints -2..2: 0 -> 0x00, 1 -> 0x38, 2 -> 0x40, sign bit 0x80
    unsigned char c = v == 0 ? 0 : (std::abs(v) == 1 ? 0x38 : 0x40);
    if (v < 0) c |= 0x80;
    *dst = c;
  }
}

template <DataType T, DataType D, WgmmaMajor MA, WgmmaSwizzle SA, WgmmaMajor MB, WgmmaSwizzle SB, bool RegA = false>
static bool run(char const* name) {
  constexpr unsigned eb = Elem<T>::bytes, KE = K_BYTES / eb;
  std::vector<int> A(M * KE), B(N * KE);
  unsigned seed = 12345u + unsigned(MA) * 7 + unsigned(SA) * 13 + unsigned(MB) * 17 + unsigned(SB) * 19;
  for (auto& x : A) { seed = seed * 1103515245u + 12345u; x = int((seed >> 16) % 5) - 2; }
  for (auto& x : B) { seed = seed * 1103515245u + 12345u; x = int((seed >> 16) % 5) - 2; }
  std::vector<unsigned char> ar(M * KE * eb), br(N * KE * eb);
  for (unsigned i = 0; i < M * KE; ++i) encode(T, A[i], &ar[i * eb]);
  for (unsigned i = 0; i < N * KE; ++i) encode(T, B[i], &br[i * eb]);
  unsigned char *da, *db; float* dout;
  cudaMalloc(&da, ar.size()); cudaMalloc(&db, br.size()); cudaMalloc(&dout, M * N * 4);
  cudaMemcpy(da, ar.data(), ar.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(db, br.data(), br.size(), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xff, M * N * 4);
  kernel<T, D, MA, SA, MB, SB, RegA><<<1, 128>>>(da, db, dout);
  cudaError_t e = cudaDeviceSynchronize();
  std::vector<float> out(M * N);
  cudaMemcpy(out.data(), dout, M * N * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      int ref = 0;
      for (unsigned k = 0; k < KE; ++k) ref += A[m * KE + k] * B[n * KE + k];
      if (out[m * N + n] != float(ref)) { if (bad < 3) ADD_FAILURE() << name << ": (" << m << "," << n << ") got " << out[m * N + n] << " want " << ref; ++bad; }
    }
  EXPECT_EQ(e, cudaSuccess) << name << ": " << cudaGetErrorString(e);
  EXPECT_EQ(bad, 0) << name << ": " << bad << " wrong elements";
  cudaFree(da); cudaFree(db); cudaFree(dout);
  return bad == 0 && e == cudaSuccess;
}


using cute_cpp::test::has_device;
using S = WgmmaSwizzle;
using J = WgmmaMajor;

TEST(CtmWgmmaGpu, Bf16EverySwizzleKMajor) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  run<DataType::bf16, DataType::f32, J::k, S::b128, J::k, S::b128>("bf16 A K/128B  B K/128B");
  run<DataType::bf16, DataType::f32, J::k, S::b64, J::k, S::b64>("bf16 A K/64B   B K/64B");
  run<DataType::bf16, DataType::f32, J::k, S::b32, J::k, S::b32>("bf16 A K/32B   B K/32B");
  run<DataType::bf16, DataType::f32, J::k, S::none, J::k, S::none>("bf16 A K/none  B K/none");
}
TEST(CtmWgmmaGpu, Bf16EverySwizzleMNMajor) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  run<DataType::bf16, DataType::f32, J::mn, S::b128, J::mn, S::b128>("bf16 A MN/128B B MN/128B");
  run<DataType::bf16, DataType::f32, J::mn, S::b64, J::mn, S::b64>("bf16 A MN/64B  B MN/64B");
  run<DataType::bf16, DataType::f32, J::mn, S::b32, J::mn, S::b32>("bf16 A MN/32B  B MN/32B");
  run<DataType::bf16, DataType::f32, J::mn, S::none, J::mn, S::none>("bf16 A MN/none B MN/none");
}
TEST(CtmWgmmaGpu, Bf16MixedMajorAndRegisterA) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  run<DataType::bf16, DataType::f32, J::k, S::b128, J::mn, S::b64>("bf16 A K/128B  B MN/64B");
  run<DataType::bf16, DataType::f32, J::mn, S::none, J::k, S::b32>("bf16 A MN/none B K/32B");
  run<DataType::bf16, DataType::f32, J::k, S::b128, J::mn, S::b128, true>("bf16 A regs    B MN/128B");
  run<DataType::bf16, DataType::f32, J::k, S::b64, J::k, S::none, true>("bf16 A regs    B K/none");
}
TEST(CtmWgmmaGpu, Fp8Tf32Int8) {
  if (!has_device()) GTEST_SKIP() << "no GPU";
  run<DataType::e4m3, DataType::f32, J::k, S::b128, J::k, S::b128>("e4m3 A K/128B  B K/128B");
  run<DataType::e4m3, DataType::f32, J::k, S::b32, J::k, S::none>("e4m3 A K/32B   B K/none");
  run<DataType::tf32, DataType::f32, J::k, S::b128, J::k, S::b64>("tf32 A K/128B  B K/64B");
  run<DataType::tf32, DataType::f32, J::k, S::none, J::k, S::b32>("tf32 A K/none  B K/32B");
  run<DataType::s8, DataType::s32, J::k, S::b128, J::k, S::b128>("s8   A K/128B  B K/128B");
  run<DataType::s8, DataType::s32, J::k, S::b64, J::k, S::none>("s8   A K/64B   B K/none");
}

}  // namespace
