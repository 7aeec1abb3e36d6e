// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// small_attention: O = softmax(Q K^T / sqrt(D)) V for one head, Q, K, V, O [seq, 64] bf16, causal or
// not, on the warp MMA (mma.sync) of every target. A block of 4 warps takes 64 query rows (16 a warp)
// and walks the keys 64 at a time: cp.async brings K's and V's block to padded shared tiles; S = Q K^T
// in fp32 (-inf past seq or the diagonal); OnlineSoftmax folds S into the rows' running maximum and
// sum, rescales O and turns S into P, which, rounded to bf16, is the A operand of O += P V.
// Checked on fresh random data against a CPU reference in double. Needs a GPU (else says so, exits 0).
#include <cute_cpp/attention/online_softmax.hpp>  // OnlineSoftmax
#include <cute_cpp/copy.hpp>                      // TiledCopy, CopyG2SOp, LdMatrix8x8x16bOp, copy_if
#include <cute_cpp/host.hpp>                      // DeviceBuffer, launch, cuda_check
#include <cute_cpp/layout.hpp>                    // Layout, Shape, Stride, C, make_layout, local_tile
#include <cute_cpp/mma/mma_sync.hpp>              // warp::MmaF16BF16Op, TiledMma, gemm
#include <cute_cpp/smem/allocator.hpp>            // SmemArray
#include <cute_cpp/tensor.hpp>                    // make_tensor

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <numbers>
#include <random>
#include <vector>

namespace cc = cute_cpp;
using cc::C;
using bf16 = cc::bf16;

// ---- the plan ----
constexpr int D = 64, BM = 64, BN = 64, Warps = 4;
using MmaQK = cc::TiledMma<cc::warp::MmaF16BF16Op<bf16>, Warps, 1, BM, BN, 16>;  // S, 16 of D a step
using MmaPV = cc::TiledMma<cc::warp::MmaF16BF16Op<bf16>, Warps, 1, BM, D, 16>;   // O, 16 keys a step
using Softmax = cc::OnlineSoftmax<BN, D>;
// NOTE: rows padded from 64 to 72 elements (144 bytes): the 8 rows of an ldmatrix then fall in 8
// different groups of 4 banks (at 128 bytes a row, all 8 would fall in one).
using SmemRows = cc::Layout<cc::Shape<C<64>, C<D>>, cc::Stride<C<D + 8>, C<1>>>;  // (ROWS,D)
using Load = cc::TiledCopy<cc::CopyAtom<cc::CopyG2SOp<16>, bf16>,
                           cc::Layout<cc::Shape<C<16>, C<8>>, cc::Stride<C<8>, C<1>>>,  // (16,8) -> thread
                           cc::Layout<cc::Shape<C<1>, C<8>>, cc::Stride<C<0>, C<1>>>>;  // (1,8) -> value
static_assert(MmaQK::threads == 128 && MmaPV::threads == 128 && Load::threads == 128 && BM == BN,
              "cute-cpp: one block of 4 warps; with BM == BN the causal diagonal is one key block");
static_assert(MmaQK::atoms_m == 1 && MmaQK::atoms_n * 4 == BN / 2 && MmaPV::atoms_n * 4 == D / 2,
              "cute-cpp: OnlineSoftmax reads a warp's 16-row accumulators as (BN/2) and (D/2) values a thread");

/// V's tile is (keys, D) with D contiguous, but O += P V wants B as (D, keys) with keys contiguous:
/// ldmatrix .trans hands each thread the key pairs of one D column. Keys 16 kb .. 16 kb + 15.
template <class Tile>
__device__ __forceinline__ void copy_s2r_v_transposed(Tile const& sV, int kb, MmaPV::FragmentB& b) {
  int const lane = int(threadIdx.x % 32);
  for (int an = 0; an < MmaPV::atoms_n; an += 2) {
    std::uint32_t r[4];  // matrices: (keys 0-7, dims 0-7), (keys 8-15, 0-7), (0-7, 8-15), (8-15, 8-15)
    int const key = kb * 16 + lane % 8 + lane / 8 % 2 * 8, dim = an * 8 + lane / 16 * 8;  // this lane's row address
    cc::LdMatrix8x8x16bOp<4, /*Transpose=*/true>::copy(&sV(key, dim), r);
    b.r[an][0][0] = r[0];
    b.r[an][0][1] = r[1];
    b.r[an + 1][0][0] = r[2];
    b.r[an + 1][0][1] = r[3];
  }
}

/// Two floats as the packed bf16 pair mma.sync takes, `lo` in the low half.
__device__ __forceinline__ std::uint32_t pack_bf16x2(float lo, float hi) {
  __nv_bfloat162 const pair = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<std::uint32_t const*>(&pair);
}

__global__ void __launch_bounds__(128) attention_kernel(bf16 const* q, bf16 const* k, bf16 const* v, bf16* o, int seq,
                                                        float scale_log2, bool causal) {
  __shared__ cc::SmemArray<bf16, 64 * (D + 8)> q_storage, k_storage, v_storage;
  auto const sQ = cc::make_tensor(q_storage.data, SmemRows{});  // (BM,D)
  auto const sK = cc::make_tensor(k_storage.data, SmemRows{});  // (BN,D)
  auto const sV = cc::make_tensor(v_storage.data, SmemRows{});  // (BN,D)
  auto const rows = cc::make_layout(cc::make_shape(seq, C<D>{}), cc::make_stride(C<D>{}, C<1>{}));  // (SEQ,D)
  auto const tile = cc::make_shape(C<64>{}, C<D>{});
  int const mb = int(blockIdx.x);

  auto const load = Load::get_slice(int(threadIdx.x));
  auto const load_rows = [&](bf16 const* from, int block, auto const& sX) {  // block of 64 rows -> sX
    int const left = seq - block * 64;  // rows of [seq, D] from the block's first
    auto const inside = [&](int vm, int vn, int rm, int rn) { return cc::get<0>(load.coord(vm, vn, rm, rn)) < left; };
    auto const gX = cc::local_tile(cc::make_tensor(from, rows), tile, cc::make_coord(block, 0));  // (64,D)
    cc::copy_if(Load{}, inside, load.partition_S(gX), load.partition_D(sX));  // (CPY,CPY_ROWS,CPY_D) = ((1,8),4,1)
  };
  load_rows(q, mb, sQ);  // lands with the first key block
  auto const qk = MmaQK::get_slice(int(threadIdx.x));
  auto const pv = MmaPV::get_slice(int(threadIdx.x));
  MmaQK::FragmentA tSrQ[D / 16];  // this warp's 16 rows of Q, all of D, kept in registers
  MmaQK::FragmentB tSrK;
  MmaPV::FragmentA tOrP;
  MmaPV::FragmentB tOrV;
  auto tOrO = pv.partition_fragment_C();  // (MMA_M,MMA_N,4) fp32, zero
  auto const tOrO_values = cc::make_tensor(&tOrO.v[0][0][0], cc::make_layout(cc::make_shape(C<D / 2>{}, C<1>{})));
  Softmax softmax;

  int const key_blocks = causal ? mb + 1 : (seq + BN - 1) / BN;
  for (int nb = 0; nb < key_blocks; ++nb) {
    __syncthreads();  // every warp is done with the previous K and V
    load_rows(k, nb, sK);
    load_rows(v, nb, sV);
    cc::cp_async_commit_group();
    cc::cp_async_wait_group<0>();
    __syncthreads();
    if (nb == 0)
      for (int kb = 0; kb < D / 16; ++kb) qk.copy_s2r_A(sQ, kb, tSrQ[kb]);

    auto tSrS = qk.partition_fragment_C();  // (MMA_M,MMA_N,4): S = Q K^T
    for (int kb = 0; kb < D / 16; ++kb) {
      qk.copy_s2r_B(sK, kb, tSrK);
      cc::gemm(MmaQK{}, tSrS, tSrQ[kb], tSrK);
    }
    for (int an = 0; an < MmaQK::atoms_n; ++an)
      for (int i = 0; i < 4; ++i) {
        int const key = nb * BN + qk.col_of(an, i), query = mb * BM + qk.row_of(0, i);
        if (key >= seq || (causal && key > query)) tSrS.v[0][an][i] = -INFINITY;
      }
    // A thread's S values in OnlineSoftmax's order: value jj = 4 an + i, row half jj / 2 % 2 (= i / 2).
    auto const tSrS_values = cc::make_tensor(&tSrS.v[0][0][0], cc::make_layout(cc::make_shape(C<BN / 2>{}, C<1>{})));
    Softmax::rescale(tOrO_values, softmax.scores(tSrS_values, scale_log2));  // S becomes P

    for (int kb = 0; kb < BN / 16; ++kb) {  // O += P V, keys 16 kb .. 16 kb + 15
      // P's accumulators of two 8-key atoms are A's registers of one 16-key step (same rows, columns).
      auto const& lo = tSrS.v[0][2 * kb];
      auto const& hi = tSrS.v[0][2 * kb + 1];
      tOrP.r[0][0][0] = pack_bf16x2(lo[0], lo[1]);
      tOrP.r[0][0][1] = pack_bf16x2(lo[2], lo[3]);
      tOrP.r[0][0][2] = pack_bf16x2(hi[0], hi[1]);
      tOrP.r[0][0][3] = pack_bf16x2(hi[2], hi[3]);
      copy_s2r_v_transposed(sV, kb, tOrV);
      cc::gemm(MmaPV{}, tOrO, tOrP, tOrV);
    }
  }
  float lse[2];
  softmax.finish(tOrO_values, scale_log2, lse);
  auto const gO = cc::local_tile(cc::make_tensor(o, rows), tile, cc::make_coord(mb, 0));  // (BM,D)
  for (int an = 0; an < MmaPV::atoms_n; ++an)
    for (int i = 0; i < 4; ++i)
      if (mb * BM + pv.row_of(0, i) < seq) gO(pv.row_of(0, i), pv.col_of(an, i)) = __float2bfloat16(tOrO.v[0][an][i]);
}

// ---- host ----

bool check(int seq, bool causal, std::mt19937& rng) {
  std::size_t const count = std::size_t(seq) * D;
  std::uniform_real_distribution<float> wide(-2.0f, 2.0f), narrow(-1.0f, 1.0f);  // sharper softmax from wider Q, K
  std::vector<bf16> hq(count), hk(count), hv(count);
  for (std::size_t i = 0; i < count; ++i) {
    hq[i] = __float2bfloat16(wide(rng));
    hk[i] = __float2bfloat16(wide(rng));
    hv[i] = __float2bfloat16(narrow(rng));
  }
  cc::host::DeviceBuffer<bf16> dq(count), dk(count), dv(count), dout(count);
  dq.upload(hq);
  dk.upload(hk);
  dv.upload(hv);
  dout.fill_bytes(0xFF);  // poison: every bf16 is a NaN until written
  float const scale_log2 = float(std::numbers::log2e / std::sqrt(double(D)));  // exp(x / sqrt(D)) = 2^(x scale_log2)
  cc::host::launch(attention_kernel, "attention_kernel",
                   cc::host::LaunchConfig{.grid = dim3(unsigned((seq + BM - 1) / BM)), .block = dim3(128)},
                   dq.data(), dk.data(), dv.data(), dout.data(), seq, scale_log2, causal);
  cc::host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const ho = dout.download();

  std::size_t bad = 0;
  double worst = 0.0;
  for (int i = 0; i < seq; ++i) {
    int const keys = causal ? i + 1 : seq;
    std::vector<double> p(keys);
    double row_max = -INFINITY, sum = 0.0;
    for (int j = 0; j < keys; ++j) {
      double s = 0.0;
      for (int d = 0; d < D; ++d) s += double(float(hq[i * D + d])) * double(float(hk[j * D + d]));
      p[j] = s / std::sqrt(double(D));
      row_max = std::max(row_max, p[j]);
    }
    for (int j = 0; j < keys; ++j) sum += (p[j] = std::exp(p[j] - row_max));
    for (int d = 0; d < D; ++d) {
      double want = 0.0, spread = 0.0;
      for (int j = 0; j < keys; ++j) {
        double const term = p[j] / sum * double(float(hv[j * D + d]));
        want += term;
        spread += std::fabs(term);
      }
      // NOTE: P is rounded to bf16 before P V (2^-8 of each term: 2^-8 of `spread` in all) and O is
      // rounded to bf16 (2^-8 of |O|); allowed twice each.
      double const got = double(float(ho[i * D + d])), error = std::fabs(got - want);
      double const tolerance = std::ldexp(spread + std::fabs(want), -7) + 1e-5;
      worst = std::max(worst, error / tolerance);
      if (!(error <= tolerance) && bad++ < 5)
        std::printf("  mismatch at O(%d, %d): got %g, want %g\n", i, d, got, want);
    }
  }
  std::printf("check seq=%-5d %-10s %s (largest error / tolerance %.3f)\n", seq, causal ? "causal" : "non-causal",
              bad == 0 ? "ok    " : "FAILED", worst);
  return bad == 0;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("small_attention: needs a CUDA GPU (sm_90a, sm_100a or sm_120a); none found, nothing run\n");
    return 0;
  }
  try {
    unsigned const seed = std::random_device{}();
    std::printf("small_attention: seed %u\n", seed);
    std::mt19937 rng(seed);
    bool ok = true;
    for (int seq : {1, 77, 200, 513})
      for (bool causal : {false, true}) ok &= check(seq, causal, rng);
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "small_attention: %s\n", e.what());
    return 1;
  }
}
