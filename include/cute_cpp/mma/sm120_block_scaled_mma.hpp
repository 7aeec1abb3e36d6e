// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The sm_120a block-scaled warp MMA on FP4: atoms MmaMXF4Op (mma.sync m16n8k64 kind::mxf4, UE8M0
// factors, one per 32 of K) and MmaMXF4NVF4Op (kind::mxf4nvf4: UE4M3 factors one per 16, NVFP4,
// or UE8M0 one per 32, MXFP4); sm120::BlockScaledTiledMma lays warps over a block tile as
// TiledMma (mma/mma_sync.hpp) does and adds the scale-factor fragments. get_slice(thread) gives
// each thread's (row, k) of every A/B element, (row, col) of every accumulator, and the rows /
// columns whose factors it holds; copy_s2r_* load them from K-contiguous shared-memory bytes.
// CuTeDSL: cute.nvgpu.warp.MmaMXF4Op / MmaMXF4NVF4Op, cute.make_tiled_mma, TiledMma.get_slice,
// cute.gemm. Target of the instructions: sm_120a (the layout functions are host-computable).
#include <cute_cpp/config.hpp>              // CUTE_CPP_HD
#include <cute_cpp/copy/atoms.hpp>          // LdMatrix8x8x16bOp
#include <cute_cpp/diag/sm120_mma.hpp>      // sm120_mma_scale_type, _scale_vec, _tile, _tile_k, _smem_operand
#include <cute_cpp/quant/fp4.hpp>           // ue8m0, ue4m3
#include <cute_cpp/tensor/tensor.hpp>       // TensorView, detail::mode_unit
#include <ctm/sm120/mma_block_scale.hpp>    // mma_m16n8k64_row_col_kind_mxf4{,nvf4}_block_scale

#include <cstdint>
#include <type_traits>
#include <utility>

namespace cute_cpp::warp {

namespace detail {
template <class SF>
inline constexpr diag::Sm120ScaleType scale_type_of = std::is_same_v<SF, quant::ue8m0>   ? diag::Sm120ScaleType::ue8m0
                                                      : std::is_same_v<SF, quant::ue4m3> ? diag::Sm120ScaleType::ue4m3
                                                                                         : diag::Sm120ScaleType::other;
}  // namespace detail

/// mma.sync m16n8k64 kind::mxf4 block_scale scale_vec::2X: E2M1 x E2M1 -> f32, UE8M0 factors, one per 32 K.
template <class SF = quant::ue8m0>
struct MmaMXF4Op {
  static_assert(diag::sm120_mma_scale_type<diag::Sm120MmaKind::mxf4, detail::scale_type_of<SF>>::ok);
  using sf_type = SF;
  static constexpr int m = 16, n = 8, k = 64, sf_vec_size = 32;
#if defined(__CUDACC__)
  /// d += (a x sfa) (b x sfb); ByteId picks the byte pair (0 or 2) of sfa / sfb holding this K's factors.
  template <int ByteId>
  __device__ __forceinline__ static void fma(float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[2],
                                             std::uint32_t sfa, std::uint32_t sfb) {
    ctm::mma_m16n8k64_row_col_kind_mxf4_block_scale(d, a, b, d, sfa, ctm::MmaScaleSelectorA<ByteId, 0>{}, sfb,
                                                    ctm::MmaScaleSelectorB<ByteId, 0>{});
  }
#endif
};

/// mma.sync m16n8k64 kind::mxf4nvf4 block_scale: UE4M3 factors one per 16 K (scale_vec::4X, NVFP4)
/// or UE8M0 one per 32 (scale_vec::2X, MXFP4).
template <class SF, int SFVecSize = std::is_same_v<SF, quant::ue4m3> ? 16 : 32>
struct MmaMXF4NVF4Op {
  static_assert(diag::sm120_mma_scale_type<diag::Sm120MmaKind::mxf4nvf4, detail::scale_type_of<SF>>::ok);
  static_assert(diag::sm120_mma_scale_vec<detail::scale_type_of<SF>, SFVecSize>::ok);
  using sf_type = SF;
  static constexpr int m = 16, n = 8, k = 64, sf_vec_size = SFVecSize;
#if defined(__CUDACC__)
  template <int ByteId>
  __device__ __forceinline__ static void fma(float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[2],
                                             std::uint32_t sfa, std::uint32_t sfb) {
    constexpr auto vec = SFVecSize == 16 ? ctm::MmaScaleVec::x4 : ctm::MmaScaleVec::x2;
    ctm::mma_m16n8k64_row_col_kind_mxf4nvf4_block_scale<vec>(d, a, b, d, sfa, ctm::MmaScaleSelectorA<ByteId, 0>{}, sfb,
                                                             ctm::MmaScaleSelectorB<ByteId, 0>{});
  }
#endif
};

}  // namespace cute_cpp::warp

namespace cute_cpp::sm120 {

template <class TiledMmaT>
class BlockScaledThrMma;

/// Warps WarpsM x WarpsN (warp w at (w % WarpsM, w / WarpsM)) over a TileM x TileN x TileK tile of
/// E2M1 operands; each warp repeats the atom over its (TileM/WarpsM) x (TileN/WarpsN) part.
///   BlockScaledTiledMma<warp::MmaMXF4NVF4Op<quant::ue4m3>, 2, 2, 64, 64, 128>: 128 threads, each
///   warp 32x32 (2x4 atoms), 2 k-atoms, one scale register per row or column and k-tile: 4 factors.
/// Scale registers: a thread's register rk for m-atom am holds the factors of K blocks
/// 4rk .. 4rk+3 of one row of A (byte i: block 4rk+i), loaded as one 32-bit word. NVFP4: one
/// register per k-atom, byte-id 0; MXFP4: k-atoms 2rk and 2rk+1 share it, byte-ids 0 and 2.
/// NOTE: thread-id-a and thread-id-b are 0 (NVIDIA's sm_120 atoms use these): the instruction reads
/// A's factors of rows g and g+8 from lanes 4g and 4g+1 and B's of column g from lane 4g. Every lane
/// of a quad loads its pair's copy, so no value depends on the readings of the other thread-ids.
template <class Atom, int WarpsM, int WarpsN, int TileM, int TileN, int TileK>
struct BlockScaledTiledMma {
  static_assert(diag::sm120_mma_tile<TileM, TileN, WarpsM, WarpsN>::ok);
  static_assert(diag::sm120_mma_tile_k<TileK, Atom::sf_vec_size>::ok);
  using atom_type = Atom;
  using sf_type = typename Atom::sf_type;
  static constexpr int threads = 32 * WarpsM * WarpsN;
  static constexpr int tile_m = TileM, tile_n = TileN, tile_k = TileK;
  static constexpr int warps_m = WarpsM, warps_n = WarpsN;
  static constexpr int warp_m = TileM / WarpsM, warp_n = TileN / WarpsN;
  static constexpr int atoms_m = warp_m / 16, atoms_n = warp_n / 8, atoms_k = TileK / 64;
  static constexpr int sf_vec_size = Atom::sf_vec_size;
  /// Scale factors per row (column) in one atom's K, and per 32-bit register.
  static constexpr int sf_per_atom = 64 / sf_vec_size, sf_regs_k = TileK / (4 * sf_vec_size);
  /// Bytes of K in the tile: packed E2M1 (two a byte) and factors (one a byte).
  static constexpr int k_bytes = TileK / 2, sf_k_bytes = TileK / sf_vec_size;

  /// The scale register (of sf_regs_k) that k-atom ak reads, and its byte-id selector.
  [[nodiscard]] CUTE_CPP_HD static constexpr int sf_register_of(int ak) { return ak * sf_per_atom / 4; }
  [[nodiscard]] CUTE_CPP_HD static constexpr int sf_byte_id_of(int ak) { return ak * sf_per_atom % 4; }

  /// A's registers of one thread: 4 per (m-atom, k-atom), 8 E2M1 each (element i in bits 4i..4i+3).
  struct FragmentA {
    std::uint32_t r[atoms_m][atoms_k][4];
  };
  /// B's registers of one thread: 2 per (n-atom, k-atom).
  struct FragmentB {
    std::uint32_t r[atoms_n][atoms_k][2];
  };
  /// The accumulators of one thread: 4 floats per (m-atom, n-atom), at (row_of(am, i), col_of(an, i)).
  struct FragmentC {
    float v[atoms_m][atoms_n][4];
  };
  /// A's scale factors of one thread: sf_regs_k registers per m-atom (row sfa_row(am)).
  struct FragmentSFA {
    std::uint32_t r[atoms_m][sf_regs_k];
  };
  /// B's scale factors of one thread: sf_regs_k registers per n-atom (column sfb_col(an)).
  struct FragmentSFB {
    std::uint32_t r[atoms_n][sf_regs_k];
  };

  [[nodiscard]] CUTE_CPP_HD static constexpr BlockScaledThrMma<BlockScaledTiledMma> get_slice(int thread) {
    return BlockScaledThrMma<BlockScaledTiledMma>(thread);
  }
};

/// A block tile's coordinate: (row or column, k), k in elements.
struct MmaCoord {
  int mn, k;
  friend constexpr bool operator==(MmaCoord, MmaCoord) = default;
};

/// One thread's part of a BlockScaledTiledMma.
template <class TiledMmaT>
class BlockScaledThrMma {
  using M = TiledMmaT;

 public:
  using FragmentA = typename M::FragmentA;
  using FragmentB = typename M::FragmentB;
  using FragmentC = typename M::FragmentC;
  using FragmentSFA = typename M::FragmentSFA;
  using FragmentSFB = typename M::FragmentSFB;

  CUTE_CPP_HD constexpr explicit BlockScaledThrMma(int thread)
      : lane_(thread % 32),
        m0_((thread / 32) % M::warps_m * M::warp_m),
        n0_((thread / 32) / M::warps_m * M::warp_n) {}

  /// Element `nib` (0..7) of A register `reg` (0..3) of atom (am, ak): row g (+8 for registers 1
  /// and 3), k 8t + nib (+32 for registers 2 and 3), with g = lane / 4 and t = lane % 4.
  [[nodiscard]] CUTE_CPP_HD constexpr MmaCoord a_coord(int am, int ak, int reg, int nib) const {
    return {m0_ + am * 16 + lane_ / 4 + 8 * (reg % 2), ak * 64 + 32 * (reg / 2) + 8 * (lane_ % 4) + nib};
  }
  /// Element `nib` of B register `reg` (0..1) of atom (an, ak): column g, k 8t + nib (+32 for register 1).
  [[nodiscard]] CUTE_CPP_HD constexpr MmaCoord b_coord(int an, int ak, int reg, int nib) const {
    return {n0_ + an * 8 + lane_ / 4, ak * 64 + 32 * reg + 8 * (lane_ % 4) + nib};
  }
  /// The block-tile row of accumulator i of m-atom am, and the column of accumulator i of n-atom an.
  [[nodiscard]] CUTE_CPP_HD constexpr int row_of(int am, int i) const { return m0_ + am * 16 + lane_ / 4 + (i / 2) * 8; }
  [[nodiscard]] CUTE_CPP_HD constexpr int col_of(int an, int i) const { return n0_ + an * 8 + 2 * (lane_ % 4) + (i % 2); }

  /// The row of A whose factors this thread holds for m-atom am: g, or g + 8 on odd lanes.
  [[nodiscard]] CUTE_CPP_HD constexpr int sfa_row(int am) const { return m0_ + am * 16 + lane_ / 4 + 8 * (lane_ % 2); }
  /// The column of B whose factors this thread holds for n-atom an: g.
  [[nodiscard]] CUTE_CPP_HD constexpr int sfb_col(int an) const { return n0_ + an * 8 + lane_ / 4; }
  /// Whether the instruction (thread-id 0) reads this thread's A / B factor registers.
  [[nodiscard]] CUTE_CPP_HD constexpr bool sfa_read() const { return lane_ % 4 < 2; }
  [[nodiscard]] CUTE_CPP_HD constexpr bool sfb_read() const { return lane_ % 4 == 0; }

#if defined(__CUDACC__)
  /// copy_s2r_A(sA, kb, a): k-tile kb of A from a (TileM, K/2) byte tile with K contiguous; one
  /// ldmatrix.x4 per (m-atom, k-atom): 16 rows x 32 bytes, a0..a3 as the atom's fragment.
  template <class E, class L>
  __device__ __forceinline__ void copy_s2r_A(TensorView<E, L> const& sA, int kb, FragmentA& a) const {
    static_assert(diag::sm120_mma_smem_operand<int(sizeof(E)), cute_cpp::detail::mode_unit<L, 1>()>::ok);
#pragma unroll
    for (int am = 0; am < M::atoms_m; ++am)
#pragma unroll
      for (int ak = 0; ak < M::atoms_k; ++ak)
        LdMatrix8x8x16bOp<4>::copy(&sA(m0_ + am * 16 + lane_ % 16, (kb * M::atoms_k + ak) * 32 + (lane_ / 16) * 16),
                                   a.r[am][ak]);
  }
  /// copy_s2r_B(sB, kb, b): k-tile kb of B from a (TileN, K/2) byte tile with K contiguous; one
  /// ldmatrix.x4 per two n-atoms and k-atom.
  template <class E, class L>
  __device__ __forceinline__ void copy_s2r_B(TensorView<E, L> const& sB, int kb, FragmentB& b) const {
    static_assert(diag::sm120_mma_smem_operand<int(sizeof(E)), cute_cpp::detail::mode_unit<L, 1>()>::ok);
#pragma unroll
    for (int an = 0; an < M::atoms_n; an += 2)
#pragma unroll
      for (int ak = 0; ak < M::atoms_k; ++ak) {
        std::uint32_t r[4];
        LdMatrix8x8x16bOp<4>::copy(&sB(n0_ + an * 8 + lane_ % 8 + (lane_ / 16) * 8,
                                       (kb * M::atoms_k + ak) * 32 + ((lane_ / 8) % 2) * 16),
                                   r);
        b.r[an][ak][0] = r[0], b.r[an][ak][1] = r[1];
        b.r[an + 1][ak][0] = r[2], b.r[an + 1][ak][1] = r[3];
      }
  }
  /// copy_s2r_SFA(sSFA, kb, sfa): k-tile kb of A's factors from a (TileM, K/SFVecSize) byte tile
  /// with K contiguous and rows 4-byte aligned: one 32-bit load per (m-atom, register).
  template <class E, class L>
  __device__ __forceinline__ void copy_s2r_SFA(TensorView<E, L> const& sSFA, int kb, FragmentSFA& sfa) const {
    static_assert(diag::sm120_mma_smem_operand<int(sizeof(E)), cute_cpp::detail::mode_unit<L, 1>()>::ok);
#pragma unroll
    for (int am = 0; am < M::atoms_m; ++am)
#pragma unroll
      for (int rk = 0; rk < M::sf_regs_k; ++rk)
        sfa.r[am][rk] = *reinterpret_cast<std::uint32_t const*>(&sSFA(sfa_row(am), kb * M::sf_k_bytes + 4 * rk));
  }
  /// copy_s2r_SFB(sSFB, kb, sfb): the same for B's factors, (TileN, K/SFVecSize).
  template <class E, class L>
  __device__ __forceinline__ void copy_s2r_SFB(TensorView<E, L> const& sSFB, int kb, FragmentSFB& sfb) const {
    static_assert(diag::sm120_mma_smem_operand<int(sizeof(E)), cute_cpp::detail::mode_unit<L, 1>()>::ok);
#pragma unroll
    for (int an = 0; an < M::atoms_n; ++an)
#pragma unroll
      for (int rk = 0; rk < M::sf_regs_k; ++rk)
        sfb.r[an][rk] = *reinterpret_cast<std::uint32_t const*>(&sSFB(sfb_col(an), kb * M::sf_k_bytes + 4 * rk));
  }
#endif

 private:
  int lane_, m0_, n0_;
};

#if defined(__CUDACC__)
/// gemm(tiled_mma, c, a, b, sfa, sfb): c += (a x sfa)(b x sfb) over every atom of the thread's
/// fragments (cute.gemm); k-atom ak reads scale register sf_register_of(ak) at byte-id sf_byte_id_of(ak).
template <class Atom, int WM, int WN, int TM, int TN, int TK>
__device__ __forceinline__ void gemm(BlockScaledTiledMma<Atom, WM, WN, TM, TN, TK> const&,
                                     typename BlockScaledTiledMma<Atom, WM, WN, TM, TN, TK>::FragmentC& c,
                                     typename BlockScaledTiledMma<Atom, WM, WN, TM, TN, TK>::FragmentA const& a,
                                     typename BlockScaledTiledMma<Atom, WM, WN, TM, TN, TK>::FragmentB const& b,
                                     typename BlockScaledTiledMma<Atom, WM, WN, TM, TN, TK>::FragmentSFA const& sfa,
                                     typename BlockScaledTiledMma<Atom, WM, WN, TM, TN, TK>::FragmentSFB const& sfb) {
  using M = BlockScaledTiledMma<Atom, WM, WN, TM, TN, TK>;
  // The byte-id is an immediate of the instruction, so the k-atoms unroll at compile time.
  [&]<int... Ak>(std::integer_sequence<int, Ak...>) {
    (
        [&] {
          constexpr int reg = M::sf_register_of(Ak), byte_id = M::sf_byte_id_of(Ak);
#pragma unroll
          for (int am = 0; am < M::atoms_m; ++am)
#pragma unroll
            for (int an = 0; an < M::atoms_n; ++an)
              Atom::template fma<byte_id>(c.v[am][an], a.r[am][Ak], b.r[an][Ak], sfa.r[am][reg], sfb.r[an][reg]);
        }(),
        ...);
  }(std::make_integer_sequence<int, M::atoms_k>{});
}
#endif

}  // namespace cute_cpp::sm120
