// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Warp MMA (mma.sync): atoms MmaF16BF16Op (m16n8k16, f16/bf16 -> f32), MmaTF32Op (m16n8k8), its
// f32-accurate MmaTF32x3Op and MmaFP8Op (m16n8k32, e4m3/e5m2), on all three targets;
// TiledMma<Atom, WarpsM, WarpsN, TileM, TileN, TileK> lays warps over a block tile, and
// get_slice(thread) gives ThrMma: FragmentA/B/C,
// copy_s2r_A/B (ldmatrix from K-major shared memory), gemm, and the coordinates of C values.
// CuTeDSL: cute.nvgpu.warp.MmaF16BF16Op / MmaFP8Op, cute.make_tiled_mma, TiledMma.get_slice,
// ThrMma.partition_fragment_A/B/C, cute.gemm.
#include <cute_cpp/config.hpp>         // CUTE_CPP_HD
#include <cute_cpp/copy/atoms.hpp>     // LdMatrix8x8x16bOp
#include <cute_cpp/diag/warp_mma.hpp>  // warp_mma_dtype, warp_mma_tile_divides, warp_mma_smem_k_major
#include <cute_cpp/tensor/register_tile.hpp>  // bf16, f16, e4m3, e5m2
#include <cute_cpp/tensor/tensor.hpp>  // TensorView
#include <ctm/common/mma_sync.hpp>     // mma_m16n8k16_row_col_f32_bf16_bf16_f32, ...

#include <bit>
#include <cstdint>
#include <type_traits>

namespace cute_cpp::warp {

/// mma.sync m16n8k16, f16 or bf16 operands, f32 accumulators.
template <class AB>
struct MmaF16BF16Op {
  static_assert(diag::warp_mma_dtype<int(sizeof(AB)), std::is_same_v<AB, f16> || std::is_same_v<AB, bf16>>::ok);
  using a_type = AB;
  using b_type = AB;
  static constexpr int m = 16, n = 8, k = 16;
#if defined(__CUDACC__)
  __device__ __forceinline__ static void fma(float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[2]) {
    if constexpr (std::is_same_v<AB, bf16>) ctm::mma_m16n8k16_row_col_f32_bf16_bf16_f32(d, a, b, d);
    else ctm::mma_m16n8k16_row_col_f32_f16_f16_f32(d, a, b, d);
  }
#endif
};

/// mma.sync m16n8k8 on tf32 (f32 registers; the low 13 mantissa bits are ignored).
struct MmaTF32Op {
  using a_type = float;
  using b_type = float;
  static constexpr int m = 16, n = 8, k = 8;
#if defined(__CUDACC__)
  __device__ __forceinline__ static void fma(float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[2]) {
    ctm::mma_m16n8k8_row_col_f32_tf32_tf32_f32(d, a, b, d);
  }
#endif
};

/// MmaTF32Op three times (3xTF32): each f32 operand split into a tf32 head (its top 10 mantissa
/// bits) and the tf32 of the remainder, head x head + head x tail + tail x head summed in f32.
/// About f32's accuracy (the tail x tail term and the tails' own rounding, 2^-20 relative, lost) at
/// three times MmaTF32Op's products: for f32 data whose results are checked as f32.
struct MmaTF32x3Op {
  using a_type = float;
  using b_type = float;
  static constexpr int m = 16, n = 8, k = 8;
  /// x's tf32 head and the tf32 of x - head, as bit patterns with the low 13 bits clear (host and
  /// device: the CPU tests check the split's accuracy).
  CUTE_CPP_HD static void split(std::uint32_t x, std::uint32_t& head, std::uint32_t& tail) {
    constexpr std::uint32_t tf32_bits = 0xffffe000u;
    head = x & tf32_bits;
#if defined(__CUDA_ARCH__)
    tail = __float_as_uint(__uint_as_float(x) - __uint_as_float(head)) & tf32_bits;
#else
    tail = std::bit_cast<std::uint32_t>(std::bit_cast<float>(x) - std::bit_cast<float>(head)) & tf32_bits;
#endif
  }
#if defined(__CUDACC__)
  __device__ __forceinline__ static void fma(float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[2]) {
    std::uint32_t ah[4], at[4], bh[2], bt[2];
#pragma unroll
    for (int i = 0; i < 4; ++i) split(a[i], ah[i], at[i]);
#pragma unroll
    for (int i = 0; i < 2; ++i) split(b[i], bh[i], bt[i]);
    // The small terms first, so that they are not lost against the large one.
    ctm::mma_m16n8k8_row_col_f32_tf32_tf32_f32(d, at, bh, d);
    ctm::mma_m16n8k8_row_col_f32_tf32_tf32_f32(d, ah, bt, d);
    ctm::mma_m16n8k8_row_col_f32_tf32_tf32_f32(d, ah, bh, d);
  }
#endif
};

/// mma.sync m16n8k32 on e4m3 / e5m2 operands, f32 accumulators.
template <class A, class B = A>
struct MmaFP8Op {
  static_assert(diag::warp_mma_dtype<int(sizeof(A)), std::is_same_v<A, e4m3> || std::is_same_v<A, e5m2>>::ok);
  static_assert(diag::warp_mma_dtype<int(sizeof(B)), std::is_same_v<B, e4m3> || std::is_same_v<B, e5m2>>::ok);
  using a_type = A;
  using b_type = B;
  static constexpr int m = 16, n = 8, k = 32;
#if defined(__CUDACC__)
  __device__ __forceinline__ static void fma(float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[2]) {
    if constexpr (std::is_same_v<A, e4m3> && std::is_same_v<B, e4m3>) ctm::mma_m16n8k32_row_col_f32_e4m3_e4m3_f32(d, a, b, d);
    else if constexpr (std::is_same_v<A, e4m3>) ctm::mma_m16n8k32_row_col_f32_e4m3_e5m2_f32(d, a, b, d);
    else if constexpr (std::is_same_v<B, e4m3>) ctm::mma_m16n8k32_row_col_f32_e5m2_e4m3_f32(d, a, b, d);
    else ctm::mma_m16n8k32_row_col_f32_e5m2_e5m2_f32(d, a, b, d);
  }
#endif
};

}  // namespace cute_cpp::warp

namespace cute_cpp {

/// The tag that builds a zero FragmentC: `auto acc = Mma::FragmentC::ZERO;` or `FragmentC c = ZERO`.
struct FragmentZero {};

template <class TiledMmaT>
class ThrMma;

/// Warps laid out WarpsM x WarpsN (warp w at (w % WarpsM, w / WarpsM)) over a TileM x TileN x
/// TileK block tile; each warp repeats the atom over its (TileM/WarpsM) x (TileN/WarpsN) part.
///   TiledMma<warp::MmaF16BF16Op<bf16>, 2, 2, 64, 64, 32>: 128 threads, each warp 32x32 (2x4 atoms), 2 k-atoms
template <class Atom, int WarpsM, int WarpsN, int TileM, int TileN, int TileK>
struct TiledMma {
  static_assert(diag::warp_mma_tile_divides<TileM, TileN, TileK, WarpsM, WarpsN, Atom::m, Atom::n, Atom::k>::ok);
  using atom_type = Atom;
  static constexpr int threads = 32 * WarpsM * WarpsN;
  static constexpr int tile_m = TileM, tile_n = TileN, tile_k = TileK;
  static constexpr int warp_m = TileM / WarpsM, warp_n = TileN / WarpsN;
  static constexpr int atoms_m = warp_m / Atom::m, atoms_n = warp_n / Atom::n, atoms_k = TileK / Atom::k;
  static constexpr int warps_m = WarpsM;

  /// A's registers of one thread: 4 per (m-atom, k-atom).
  struct FragmentA {
    std::uint32_t r[atoms_m][atoms_k][4];
  };
  /// B's registers of one thread: 2 per (n-atom, k-atom).
  struct FragmentB {
    std::uint32_t r[atoms_n][atoms_k][2];
  };
  /// The accumulators of one thread: 4 floats per (m-atom, n-atom); value i of atom (am, an) is
  /// C(row_of(am, i), col_of(an, i)) of the block tile.
  struct FragmentC {
    static constexpr FragmentZero ZERO{};
    float v[atoms_m][atoms_n][4];
    FragmentC() = default;
    CUTE_CPP_HD constexpr FragmentC(FragmentZero) : v{} {}
  };

  [[nodiscard]] CUTE_CPP_HD static constexpr ThrMma<TiledMma> get_slice(int thread) { return ThrMma<TiledMma>(thread); }
};

/// One thread's part of a TiledMma.
template <class TiledMmaT>
class ThrMma {
  using Atom = typename TiledMmaT::atom_type;

 public:
  using FragmentA = typename TiledMmaT::FragmentA;
  using FragmentB = typename TiledMmaT::FragmentB;
  using FragmentC = typename TiledMmaT::FragmentC;

  CUTE_CPP_HD constexpr explicit ThrMma(int thread)
      : lane_(thread % 32),
        m0_((thread / 32) % TiledMmaT::warps_m * TiledMmaT::warp_m),
        n0_((thread / 32) / TiledMmaT::warps_m * TiledMmaT::warp_n) {}

  [[nodiscard]] CUTE_CPP_HD constexpr FragmentA partition_fragment_A() const { return {}; }
  [[nodiscard]] CUTE_CPP_HD constexpr FragmentB partition_fragment_B() const { return {}; }
  [[nodiscard]] CUTE_CPP_HD constexpr FragmentC partition_fragment_C() const { return FragmentC::ZERO; }

  /// The block-tile row of accumulator value i of m-atom am, and the column of value i of n-atom an.
  [[nodiscard]] CUTE_CPP_HD constexpr int row_of(int am, int i) const { return m0_ + am * 16 + lane_ / 4 + (i / 2) * 8; }
  [[nodiscard]] CUTE_CPP_HD constexpr int col_of(int an, int i) const { return n0_ + an * 8 + 2 * (lane_ % 4) + (i % 2); }

#if defined(__CUDACC__)
  /// copy_s2r_A(sA, kb, a): k-block kb of A from a (TileM, K) shared tile with K contiguous, one
  /// ldmatrix.x4 per m-atom and k-atom (16 rows x 32 bytes).
  template <class E, class L>
  __device__ __forceinline__ void copy_s2r_A(TensorView<E, L> const& sA, int kb, FragmentA& a) const {
    static_assert(diag::warp_mma_smem_k_major<detail::mode_unit<L, 1>()>::ok);
    constexpr int k16 = 16 / int(sizeof(E));  // elements in 16 bytes of K
#pragma unroll
    for (int am = 0; am < TiledMmaT::atoms_m; ++am)
#pragma unroll
      for (int ak = 0; ak < TiledMmaT::atoms_k; ++ak) {
        int const row = m0_ + am * 16 + lane_ % 16;
        int const col = (kb * TiledMmaT::atoms_k + ak) * 2 * k16 + (lane_ / 16) * k16;
        LdMatrix8x8x16bOp<4>::copy(&sA(row, col), a.r[am][ak]);
      }
  }
  /// copy_s2r_B(sB, kb, b): k-block kb of B from a (TileN, K) shared tile with K contiguous (B as
  /// the "col" operand), one ldmatrix.x4 per two n-atoms and k-atom.
  template <class E, class L>
  __device__ __forceinline__ void copy_s2r_B(TensorView<E, L> const& sB, int kb, FragmentB& b) const {
    static_assert(diag::warp_mma_smem_k_major<detail::mode_unit<L, 1>()>::ok);
    constexpr int k16 = 16 / int(sizeof(E));
#pragma unroll
    for (int an = 0; an < TiledMmaT::atoms_n; an += 2)
#pragma unroll
      for (int ak = 0; ak < TiledMmaT::atoms_k; ++ak) {
        int const row = n0_ + an * 8 + lane_ % 8 + (lane_ / 16) * 8;
        int const col = (kb * TiledMmaT::atoms_k + ak) * 2 * k16 + ((lane_ / 8) % 2) * k16;
        std::uint32_t r[4];
        LdMatrix8x8x16bOp<4>::copy(&sB(row, col), r);
        b.r[an][ak][0] = r[0];
        b.r[an][ak][1] = r[1];
        b.r[an + 1][ak][0] = r[2];
        b.r[an + 1][ak][1] = r[3];
      }
  }
#endif

 private:
  int lane_, m0_, n0_;
};

#if defined(__CUDACC__)
/// gemm(tiled_mma, c, a, b): c += a * b over every atom of the thread's fragments (cute.gemm).
template <class Atom, int WM, int WN, int TM, int TN, int TK>
__device__ __forceinline__ void gemm(TiledMma<Atom, WM, WN, TM, TN, TK> const&,
                                     typename TiledMma<Atom, WM, WN, TM, TN, TK>::FragmentC& c,
                                     typename TiledMma<Atom, WM, WN, TM, TN, TK>::FragmentA const& a,
                                     typename TiledMma<Atom, WM, WN, TM, TN, TK>::FragmentB const& b) {
  using M = TiledMma<Atom, WM, WN, TM, TN, TK>;
#pragma unroll
  for (int ak = 0; ak < M::atoms_k; ++ak)
#pragma unroll
    for (int am = 0; am < M::atoms_m; ++am)
#pragma unroll
      for (int an = 0; an < M::atoms_n; ++an) Atom::fma(c.v[am][an], a.r[am][ak], b.r[an][ak]);
}
#endif

}  // namespace cute_cpp
