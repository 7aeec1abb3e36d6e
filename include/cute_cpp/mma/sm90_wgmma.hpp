// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// sm90::WgmmaTiledMma: one warpgroup's share of a tile product on Hopper tensor cores. A
// (AtomsM x 64 rows of the A tile, from a row offset) and B (N columns) are read from shared
// tiles laid out by ASmem / BSmem (SmemKMajor: K-major, SmemMNMajor: M/N-major); the
// accumulator stays in registers. get_slice(thread) gives each thread's (row, col) of every
// accumulator element. CuTeDSL: sm90_utils.make_trivial_tiled_mma, warpgroup.MmaF16BF16Op /
// MmaF8Op, tiled_mma.get_slice, cute.gemm, warpgroup.fence / commit_group / wait_group.
#include <cute_cpp/diag/wgmma.hpp>
#include <cute_cpp/config.hpp>
#include <cute_cpp/operand_modes.hpp>
#include <cute_cpp/smem/smem_tile.hpp>
#include <cute_cpp/tensor/tensor.hpp>

#include <ctm/sm90/wgmma_desc.hpp>

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#  include <cuda_bf16.h>
#  include <cuda_fp16.h>
#  include <cuda_fp8.h>
#  include <ctm/common/cvt.hpp>
#  include <ctm/sm90/wgmma.hpp>
#endif

namespace cute_cpp::sm90 {

/// Role tags for the operand tiles of a tiled MMA: `AOperand<ASmem>` / `BOperand<BSmem>`. A tiled
/// MMA accepts untagged layouts too; a tagged one in the wrong place is [mma.operand-role].
template <class SmemLayout>
struct AOperand {
  using layout = SmemLayout;
};
template <class SmemLayout>
struct BOperand {
  using layout = SmemLayout;
};

namespace detail {

/// The layout inside a role tag, and the role it names (-1: untagged).
template <class L>
struct OperandRole {
  using layout = L;
  static constexpr int role = -1;
};
template <class L>
struct OperandRole<AOperand<L>> {
  using layout = L;
  static constexpr int role = 0;
};
template <class L>
struct OperandRole<BOperand<L>> {
  using layout = L;
  static constexpr int role = 1;
};

template <class T>
CUTE_CPP_HD constexpr ctm::DataType data_type_of() {
#if defined(__CUDACC__)
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return ctm::DataType::bf16;
  else if constexpr (std::is_same_v<T, __half>) return ctm::DataType::f16;
  else if constexpr (std::is_same_v<T, __nv_fp8_e4m3>) return ctm::DataType::e4m3;
  else if constexpr (std::is_same_v<T, __nv_fp8_e5m2>) return ctm::DataType::e5m2;
  else if constexpr (std::is_same_v<T, float>) return ctm::DataType::tf32;
  else if constexpr (std::is_same_v<T, std::int8_t>) return ctm::DataType::s8;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return ctm::DataType::u8;
  else static_assert(sizeof(T) == 0, "cute-cpp [mma.wgmma.types]: no wgmma input type for this element type");
#else
  static_assert(sizeof(T) == 0, "cute-cpp: wgmma element types need the CUDA headers");
  return ctm::DataType::f32;
#endif
}

CUTE_CPP_HD constexpr ctm::WgmmaSwizzle wgmma_swizzle(int bytes) {
  return bytes == 128 ? ctm::WgmmaSwizzle::b128
         : bytes == 64 ? ctm::WgmmaSwizzle::b64
         : bytes == 32 ? ctm::WgmmaSwizzle::b32
                       : ctm::WgmmaSwizzle::none;
}

/// How a warpgroup's wgmma reads one operand tile of T laid out by SmemLayout.
template <class T, class SmemLayout>
struct WgmmaOperand {
  using tile = SmemTile<T, SmemLayout>;
  static_assert(diag::wgmma_smem_swizzled<tile::swizzle_bytes>::ok);
  static constexpr bool k_major = !tile::blocked;
  static constexpr ctm::WgmmaMajor major = k_major ? ctm::WgmmaMajor::k : ctm::WgmmaMajor::mn;
  static constexpr int mn_extent = k_major ? tile::outer : tile::inner;  ///< rows (M or N) of the tile
  static constexpr int k_extent = k_major ? tile::inner : tile::outer;
  static constexpr int elem_bytes = tile::elem_bytes;
  static constexpr int atom_k = elem_bytes == 1 ? 32 : elem_bytes == 4 ? 8 : 16;

  /// LBO/SBO in bytes (PTX matrix-descriptor canonical layouts): K-major swizzled tiles step 8
  /// rows of one swizzle width; M/N-major tiles step W-wide blocks (LBO) and 8 K rows (SBO).
  static constexpr std::uint32_t lbo = k_major ? 16u : std::uint32_t(tile::box_elems * elem_bytes);
  static constexpr std::uint32_t sbo = std::uint32_t(8 * tile::swizzle_bytes);

  /// Bytes from the tile start to row `mn` (a multiple of 64 for A, of the N atom for B) and
  /// k-slice `kk`.
  static CUTE_CPP_HD constexpr std::uint32_t offset_bytes(int mn, int kk) {
    return k_major ? std::uint32_t(mn * tile::swizzle_bytes + kk * atom_k * elem_bytes)
                   : std::uint32_t((mn / tile::box_inner) * tile::box_elems * elem_bytes +
                                   kk * atom_k * tile::swizzle_bytes);
  }
  /// The descriptor of the tile at shared address `tile_addr`, for row `mn` and k-slice `kk`.
  static CUTE_CPP_HD constexpr std::uint64_t descriptor(std::uint32_t tile_addr, int mn, int kk) {
    std::uint32_t const start = tile_addr + offset_bytes(mn, kk);
    ctm::WgmmaDescFields f;
    f.start_address = start;
    f.leading_byte_offset = lbo;
    f.stride_byte_offset = sbo;
    f.swizzle = wgmma_swizzle(tile::swizzle_bytes);
    f.base_offset = ctm::wgmma_desc_base_offset(start, f.swizzle);
    return ctm::wgmma_desc_encode(f);
  }
  /// The swizzle's repeat (8 rows): a tile starting on it has the same descriptor as one at 0,
  /// plus its start address, since the base offset depends only on the address bits below it.
  static constexpr std::uint32_t repeat_bytes = ctm::wgmma_swizzle_repeat_bytes(wgmma_swizzle(tile::swizzle_bytes));
};

}  // namespace detail

#if defined(__CUDACC__)
/// Keeps the compiler from moving accesses to a fragment's registers across a wgmma fence, commit
/// or wait (CuTe's warpgroup_fence_operand; no instruction is emitted).
template <class T, int Size>
__device__ __forceinline__ void warpgroup_fence_operand(T (&registers)[Size]) {
  ctm::wgmma_fence_operand(registers);
}
/// wgmma.fence: the warpgroup's earlier accesses to the registers and shared memory its next wgmmas
/// read are ordered before them (CuTeDSL's warpgroup.fence()). A template, as ctm's is, so that a
/// translation unit built for sm_100a or sm_120a that includes this header but never calls it
/// compiles (the instruction exists on sm_90a only).
template <class Target = void>
__device__ __forceinline__ void warpgroup_fence() {
  ctm::wgmma_fence<Target>();
}
#endif

/// The C layout of one m64nN wgmma atom: thread t's accumulator value j lies at index
/// AtomLayoutC(t, j) of the column-major 64 x N atom (row = index % 64, column = index / 64).
/// Threads: 4 column pairs x 8 rows x 4 warps of 16 rows; values: 2 columns x 2 row halves x
/// N/8 blocks of 8 columns. (CuTe: SM90's CLayout_64xN.)
template <int N>
using AtomLayoutC = Layout<Shape<Shape<C<4>, C<8>, C<4>>, Shape<C<2>, C<2>, C<N / 8>>>,
                           Stride<Stride<C<128>, C<1>, C<16>>, Stride<C<64>, C<8>, C<512>>>>;

/// One thread's view of the accumulator: the (row, col) of each of its elements, read from the
/// atom's C layout.
/// NOTE: the layout is linear and a thread's part never carries into a value's (their rows lie in
/// disjoint bits: a thread's in bits 0-2 and 4-5 of the row, a value's in bit 3), so each part is
/// split into (row, col) on its own. The value's part is then a constant in unrolled loops and the
/// thread's is computed once, where splitting their sum would cost a division per element.
template <int AtomsM, int N>
struct WgmmaThrMma {
  int thread;  ///< 0..127 within the warpgroup
  /// Row of element j of atom a (rows of the warpgroup's AtomsM x 64 block).
  CUTE_CPP_HD constexpr int row(int a, int j) const { return a * 64 + thread_offset() % 64 + value_offset(j) % 64; }
  /// Column of element j.
  CUTE_CPP_HD constexpr int col(int j) const { return thread_offset() / 64 + value_offset(j) / 64; }

 private:
  CUTE_CPP_HD constexpr int thread_offset() const { return int(AtomLayoutC<N>{}(thread, 0)); }
  static CUTE_CPP_HD constexpr int value_offset(int j) { return int(AtomLayoutC<N>{}(0, j)); }
};

/// A warpgroup's accumulator of AtomsM 64 x N atoms: the register tensor and each element's
/// coordinates. WgmmaTiledMma's accumulator; an epilogue that turns one accumulator into another
/// (a gated epilogue halves N) names the result's shape with it.
template <int AtomsM, int N>
struct WgmmaAccumulator {
  static constexpr int atoms_m = AtomsM;
  static constexpr int n = N;
  /// The fragment, a register tensor of (N/2 values, AtomsM atoms): value j of atom a is at row
  /// get_slice(t).row(a, j), column get_slice(t).col(j) of the warpgroup's slab.
  using FragmentC = RmemTensor<float, Layout<Shape<C<N / 2>, C<AtomsM>>>>;
  static CUTE_CPP_HD constexpr WgmmaThrMma<AtomsM, N> get_slice(int thread_in_warpgroup) {
    return {thread_in_warpgroup};
  }
};

/// A warpgroup's tiled MMA: AtomsM atoms of m64nNk(16|8|32) (N above 256: atoms_n equal atoms
/// along N), A rows from ASmem, B from BSmem (either may be role-tagged: AOperand<L>, BOperand<L>).
template <class TA, class TB, class TAcc, class ASmem, class BSmem, int AtomsM, int N>
struct WgmmaTiledMma {
  static constexpr int atoms_n = (N + 255) / 256;
  static constexpr int atom_n = N / atoms_n;
  static_assert(diag::wgmma_tile_shape<AtomsM, atom_n>::ok);
  static_assert(diag::wgmma_operand_role<0, detail::OperandRole<ASmem>::role>::ok &&
                diag::wgmma_operand_role<1, detail::OperandRole<BSmem>::role>::ok);
  using OpA = detail::WgmmaOperand<TA, typename detail::OperandRole<ASmem>::layout>;
  using OpB = detail::WgmmaOperand<TB, typename detail::OperandRole<BSmem>::layout>;
  static_assert(diag::wgmma_operand_rows<OpA::mn_extent, AtomsM * 64>::ok);
  static_assert(diag::wgmma_operand_rows<OpB::mn_extent, N>::ok);
  static_assert(diag::wgmma_tile_n<N, atoms_n, atoms_n == 1 ? 1 : OpB::k_major ? 8 : OpB::tile::box_inner>::ok);
  static_assert(diag::wgmma_tile_k<OpA::k_extent, OpA::atom_k>::ok && OpA::k_extent == OpB::k_extent,
                "cute-cpp [mma.wgmma.tile-k]: A and B tiles must have the same K extent");
  static_assert(diag::wgmma_k_major_for_8bit<OpA::k_major, OpB::k_major, OpA::elem_bytes>::ok);
  static_assert(std::is_same_v<TAcc, float>, "cute-cpp [mma.wgmma.accumulator]: this tiled MMA accumulates in float");
  // gemm() moves A's start by row0 (a multiple of 64) and B's by whole N atoms, and keeps the
  // descriptors' base offsets.
  static_assert(OpA::offset_bytes(64, 0) % OpA::repeat_bytes == 0 &&
                (atoms_n == 1 || OpB::offset_bytes(atom_n, 0) % OpB::repeat_bytes == 0));

  static constexpr int atoms_m = AtomsM;
  static constexpr int n = N;
  static constexpr int k_slices = OpA::k_extent / OpA::atom_k;
  static constexpr int acc_per_atom = N / 2;  ///< floats per thread per 64-row atom (all of N)
  static constexpr ctm::DataType type_a = detail::data_type_of<TA>();
  static constexpr ctm::DataType type_b = detail::data_type_of<TB>();

  /// The accumulator (WgmmaAccumulator): the N atoms' fragments lie one after another, so its
  /// coordinates hold for any atoms_n.
  using Accumulator = WgmmaAccumulator<AtomsM, N>;
  using FragmentC = typename Accumulator::FragmentC;

  /// Atom a's values of the fragment, as the float array a wgmma takes.
  static CUTE_CPP_HD float (&atom_values(FragmentC& acc, int a))[N / 2] {
    return *reinterpret_cast<float(*)[N / 2]>(&acc.storage[a * (N / 2)]);
  }

  static CUTE_CPP_HD constexpr WgmmaThrMma<AtomsM, N> get_slice(int thread_in_warpgroup) {
    return Accumulator::get_slice(thread_in_warpgroup);
  }

#if defined(__CUDACC__)
  /// acc += A[row0 .. row0 + 64 AtomsM, :] * B[:, 0 .. N) over the whole K of the tiles (acc =
  /// the product when `accumulate` is false: the first k-slice ignores acc, so it needs no zeroing).
  /// Issues the wgmmas; the caller fences, commits and waits (warpgroup_arrive, commit, wait).
  /// @pre the tiles start on their swizzle's repeat (1024 bytes for 128-byte swizzles, as TMA
  ///      writes them) and row0 is a multiple of 64.
  static __device__ __forceinline__ void gemm(FragmentC& acc, TA const* a_tile, TB const* b_tile, int row0,
                                              bool accumulate = true) {
    gemm_at(acc, ctm::cvta_to_shared_u32(a_tile), ctm::cvta_to_shared_u32(b_tile), row0, accumulate);
  }
  /// gemm() on the tiles at shared-window addresses `a_tile` and `b_tile` (a main loop that keeps
  /// its stages' addresses as numbers, so that no K block converts a pointer again).
  static __device__ __forceinline__ void gemm_at(FragmentC& acc, std::uint32_t a_tile, std::uint32_t b_tile, int row0,
                                                 bool accumulate = true) {
    // NOTE: each descriptor is a constant for its (atom, k-slice) plus the tile's start
    // address, so the loop adds instead of re-deriving the fields and the base offset. The
    // start field is the low 14 bits; the sum stays below 2^14 (shared addresses), so a 32-bit
    // add of the low word suffices.
    auto const at = [](std::uint64_t constant, std::uint32_t start) {
      return (constant & ~std::uint64_t{0xFFFFFFFFu}) | std::uint32_t(std::uint32_t(constant) + start);
    };
    auto const a_start = std::uint32_t(ctm::wgmma_desc_encode_bytes(a_tile + OpA::offset_bytes(row0, 0)));
    auto const b_start = std::uint32_t(ctm::wgmma_desc_encode_bytes(b_tile));
#pragma unroll
    for (int kk = 0; kk < k_slices; ++kk) {
#pragma unroll
      for (int j = 0; j < atoms_n; ++j) {
        std::uint64_t const db = at(OpB::descriptor(0, j * atom_n, kk), b_start);
#pragma unroll
        for (int a = 0; a < AtomsM; ++a) {
          std::uint64_t const da = at(OpA::descriptor(0, a * 64, kk), a_start);
          auto& part = *reinterpret_cast<float(*)[atom_n / 2]>(&atom_values(acc, a)[j * (atom_n / 2)]);
          std::uint32_t const scale_d = kk > 0 || accumulate ? 1u : 0u;
          ctm::wgmma_mma_async<atom_n, ctm::DataType::f32, type_a, type_b, OpA::major, OpB::major>(part, da, db,
                                                                                                    scale_d);
        }
      }
    }
  }
  /// wgmma.fence: orders the accumulator's register accesses before the next wgmmas.
  static __device__ __forceinline__ void warpgroup_arrive(FragmentC& acc) {
    for (int a = 0; a < AtomsM; ++a) ctm::wgmma_fence_operand(atom_values(acc, a));
    ctm::wgmma_fence();
  }
  static __device__ __forceinline__ void commit_group() { ctm::wgmma_commit_group(); }
  /// Waits until at most Pending wgmma groups are in flight.
  template <int Pending>
  static __device__ __forceinline__ void wait_group(FragmentC& acc) {
    ctm::wgmma_wait_group<Pending>();
    for (int a = 0; a < AtomsM; ++a) ctm::wgmma_fence_operand(atom_values(acc, a));
  }
#endif
};


/// A warpgroup's tiled MMA with A in registers (wgmma RS): acc (AtomsM 64-row atoms by N) += A · B,
/// B (K x N) read from a shared tile laid out by BSmem, A this thread's FragmentA of 16-bit values.
/// An m64 accumulator's columns 16kk .. 16kk + 15 hold, per thread, the same (row, column)s as
/// A's k-slice kk, so make_a_fragment turns an accumulator into A in place (attention's P V).
/// CuTeDSL: warpgroup.MmaF16BF16Op with OperandSource.RMEM.
template <class TA, class TB, class TAcc, class BSmem, int AtomsM, int N>
struct WgmmaTiledMmaRS {
  static_assert(diag::wgmma_tile_shape<AtomsM, N>::ok);
  static_assert(diag::wgmma_operand_role<1, detail::OperandRole<BSmem>::role>::ok);
  static_assert(sizeof(TA) == 2 && std::is_same_v<TA, TB>,
                "cute-cpp [mma.wgmma.a-registers]: A from registers is 16-bit here (f16 or bf16), the type of B");
  static_assert(std::is_same_v<TAcc, float>, "cute-cpp [mma.wgmma.accumulator]: this tiled MMA accumulates in float");
  using OpB = detail::WgmmaOperand<TB, typename detail::OperandRole<BSmem>::layout>;
  static_assert(diag::wgmma_operand_rows<OpB::mn_extent, N>::ok);
  static_assert(diag::wgmma_tile_k<OpB::k_extent, OpB::atom_k>::ok);

  static constexpr int atoms_m = AtomsM;
  static constexpr int n = N;
  static constexpr int k_slices = OpB::k_extent / OpB::atom_k;
  static constexpr ctm::DataType type_a = detail::data_type_of<TA>();
  static constexpr ctm::DataType type_b = detail::data_type_of<TB>();
  using Accumulator = WgmmaAccumulator<AtomsM, N>;
  using FragmentC = typename Accumulator::FragmentC;
  /// A: per atom and k-slice, four registers of two 16-bit values (the instruction's a0..a3).
  using FragmentA = RmemTensor<std::uint32_t, Layout<Shape<C<4>, C<k_slices>, C<AtomsM>>>>;

  static CUTE_CPP_HD constexpr WgmmaThrMma<AtomsM, N> get_slice(int thread_in_warpgroup) {
    return Accumulator::get_slice(thread_in_warpgroup);
  }

#if defined(__CUDACC__)
  /// acc += A · B over the tile's K (acc = the product when `accumulate` is false: no zeroing,
  /// which would define the accumulator outside wgmma while earlier groups are in flight and make
  /// ptxas serialise them). The caller fences (warpgroup_arrive), commits and waits.
  static __device__ __forceinline__ void gemm(FragmentC& acc, FragmentA const& a, TB const* b_tile,
                                              bool accumulate = true) {
    auto const b_start = std::uint32_t(ctm::wgmma_desc_encode_bytes(ctm::cvta_to_shared_u32(b_tile)));
#pragma unroll
    for (int kk = 0; kk < k_slices; ++kk) {
      std::uint64_t const constant = OpB::descriptor(0, 0, kk);
      std::uint64_t const db =
          (constant & ~std::uint64_t{0xFFFFFFFFu}) | std::uint32_t(std::uint32_t(constant) + b_start);
#pragma unroll
      for (int atom = 0; atom < AtomsM; ++atom) {
        auto const& regs = *reinterpret_cast<std::uint32_t const(*)[4]>(&a.storage[4 * (kk + k_slices * atom)]);
        auto& part = *reinterpret_cast<float(*)[N / 2]>(&acc.storage[atom * (N / 2)]);
        ctm::wgmma_mma_async<N, ctm::DataType::f32, type_a, type_b, ctm::WgmmaMajor::k, OpB::major>(
            part, regs, db, kk > 0 || accumulate ? 1u : 0u);
      }
    }
  }
  /// wgmma.fence, after the accumulator's and A's registers are written.
  static __device__ __forceinline__ void warpgroup_arrive(FragmentC& acc, FragmentA& a) {
    ctm::wgmma_fence_operand(a.storage);
    ctm::wgmma_fence_operand(acc.storage);
    ctm::wgmma_fence();
  }
  static __device__ __forceinline__ void commit_group() { ctm::wgmma_commit_group(); }
  /// Waits until at most Pending groups are in flight; A's registers, read by the wgmmas, may then
  /// be written again (the fence keeps the compiler from doing so earlier).
  template <int Pending>
  static __device__ __forceinline__ void wait_group(FragmentC& acc, FragmentA& a) {
    ctm::wgmma_wait_group<Pending>();
    ctm::wgmma_fence_operand(acc.storage);
    ctm::wgmma_fence_operand(a.storage);
  }

  /// A from an accumulator of K = k_slices x 16 columns (values rounded to TA, nearest even):
  /// value 8kk + i of an atom is element i of k-slice kk, paired low then high.
  using FragmentK = typename WgmmaAccumulator<AtomsM, 16 * k_slices>::FragmentC;
  static __device__ __forceinline__ FragmentA make_a_fragment(FragmentK const& c) {
    FragmentA a;
#pragma unroll
    for (int atom = 0; atom < AtomsM; ++atom) {
#pragma unroll
      for (int w = 0; w < 4 * k_slices; ++w) {
        float const lo = c(2 * w, atom), hi = c(2 * w + 1, atom);
        a.storage[w + 4 * k_slices * atom] = std::is_same_v<TA, __half> ? ctm::cvt_rn_f16x2_f32(hi, lo)
                                                                         : ctm::cvt_rn_bf16x2_f32(hi, lo);
      }
    }
    return a;
  }
#endif
};

}  // namespace cute_cpp::sm90
