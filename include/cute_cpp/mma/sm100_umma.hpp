// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// sm100::UmmaTiledMma: a CTA's (or a CTA pair's) M x N tile product on Blackwell tensor cores,
// issued by one thread. A and B are read from shared tiles laid out by ASmem / BSmem (SmemKMajor:
// K-major, 32/64/128-byte swizzle; SmemMNMajor: MN-major, swizzled or 16-byte interleaved); the
// accumulator lives in tensor memory (UmmaAccumulator says where). The instruction descriptor and
// the shared-memory descriptors are derived from the types at compile time; gemm adds the tiles'
// addresses and steps K. Block-scaled kinds read their scale factors from tensor memory.
// CuTeDSL: sm100_utils.make_trivial_tiled_mma, tcgen05.MmaF16BF16Op / MmaTF32Op / MmaF8F6F4Op /
// MmaMXF8F6F4Op / MmaMXF4Op / MmaMXF4NVF4Op, cute.gemm, tcgen05.commit.
#include <cute_cpp/config.hpp>                  // CUTE_CPP_HD
#include <cute_cpp/diag/umma.hpp>               // umma.* rules
#include <cute_cpp/mma/sm100_umma_types.hpp>    // kinds of the element types, UmmaBlockScale
#include <cute_cpp/mma/sm90_wgmma.hpp>          // AOperand / BOperand role tags
#include <cute_cpp/smem/smem_tile.hpp>          // SmemTile: the forms of the operand tiles
#include <cute_cpp/tmem/tmem_copy.hpp>          // UmmaAccumulator
#include <cute_cpp/tmem/tmem_scale_factors.hpp> // UmmaScaleFactorLayout
#include <ctm/sm100/tcgen05_desc.hpp>           // tcgen05_smem_desc, tcgen05_idesc_v

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#  include <ctm/sm100/tcgen05_mma.hpp>   // tcgen05_mma, tcgen05_mma_block_scale
#  include <ctm/sm100/tcgen05_sync.hpp>  // tcgen05_commit
#endif

namespace cute_cpp::sm100 {

using sm90::AOperand;
using sm90::BOperand;

namespace detail {

CUTE_CPP_HD constexpr ctm::Tcgen05Swizzle umma_swizzle(int bytes) {
  return bytes == 128 ? ctm::Tcgen05Swizzle::b128
         : bytes == 64 ? ctm::Tcgen05Swizzle::b64
         : bytes == 32 ? ctm::Tcgen05Swizzle::b32
                       : ctm::Tcgen05Swizzle::none;
}

/// How tcgen05.mma reads one operand tile of T laid out by SmemLayout (PTX ISA "Shared memory
/// matrix layouts"; an instruction reads 32 bytes of K):
///   K-major, swizzled        rows of one swizzle width; SBO = 8 rows, LBO unused (16); K slice kk
///                            starts 32 kk bytes into the rows
///   MN-major, swizzled       blocks of one swizzle width along MN, K rows each; LBO = one block,
///                            SBO = 8 K rows; K slice kk starts 32 kk / elem rows down
///   MN-major, interleaved    blocks of 16 bytes along MN (unswizzled): core matrices of 8 K rows
///                            x 16 bytes; LBO = 8 K rows (128 bytes), SBO = one block
template <class T, class SmemLayout>
struct UmmaOperand {
  using tile = SmemTile<T, SmemLayout>;
  static constexpr bool k_major = !tile::blocked;
  static constexpr int elem_bytes = tile::elem_bytes;
  static constexpr int swizzle_bytes = tile::swizzle_bytes;
  static constexpr int row_bytes = tile::box_inner * elem_bytes;  ///< a K-major row, an MN-major block's width
  static_assert(diag::umma_smem_layout<k_major, row_bytes, swizzle_bytes>::ok);

  static constexpr int mn_extent = k_major ? tile::outer : tile::inner;  ///< rows (M or N) of the tile
  static constexpr int k_extent = k_major ? tile::inner : tile::outer;   ///< stored elements along K
  static constexpr int k_per_instr = 32 / elem_bytes;                    ///< stored elements per instruction
  static constexpr ctm::Tcgen05Major major = k_major ? ctm::Tcgen05Major::k : ctm::Tcgen05Major::mn;
  static constexpr ctm::Tcgen05Swizzle swizzle = umma_swizzle(swizzle_bytes);

  static constexpr std::uint32_t lbo =
      k_major ? 16u : swizzle_bytes != 0 ? std::uint32_t(tile::box_bytes) : 128u;
  static constexpr std::uint32_t sbo =
      swizzle_bytes != 0 ? std::uint32_t(8 * swizzle_bytes) : std::uint32_t(tile::box_bytes);

  /// Bytes from the tile's start to the first element of K slice `kk`.
  static CUTE_CPP_HD constexpr std::uint32_t k_offset_bytes(int kk) {
    return k_major ? std::uint32_t(32 * kk) : std::uint32_t(kk * k_per_instr * row_bytes);
  }
  /// The descriptor of K slice `kk` of the tile at shared address `tile_addr`.
  /// @pre tile_addr is a multiple of repeat_bytes (TMA writes swizzled tiles so)
  static CUTE_CPP_HD constexpr std::uint64_t descriptor(std::uint32_t tile_addr, int kk) {
    std::uint32_t const start = tile_addr + k_offset_bytes(kk);
    return ctm::tcgen05_smem_desc({.start_address = start,
                                   .lbo_bytes = lbo,
                                   .sbo_bytes = sbo,
                                   .base_offset = ctm::tcgen05_smem_desc_base_offset(start, swizzle),
                                   .swizzle = swizzle});
  }
  /// The alignment a tile's start needs for descriptor(0, kk) + its address to hold: the
  /// swizzle's repeat (8 rows), 128 bytes (a core matrix) when interleaved.
  static constexpr std::uint32_t repeat_bytes = swizzle_bytes != 0 ? std::uint32_t(8 * swizzle_bytes) : 128u;
};

/// A descriptor made for a tile at address 0, moved to the tile at encoded start `start16`
/// (address >> 4). NOTE: the start field is the low 14 bits and shared addresses stay below
/// 2^18, so a 32-bit add of the low word is enough.
CUTE_CPP_HD constexpr std::uint64_t umma_desc_at(std::uint64_t constant, std::uint32_t start16) {
  return (constant & ~std::uint64_t{0xFFFFFFFFu}) | std::uint32_t(std::uint32_t(constant) + start16);
}

}  // namespace detail

/// A tiled tcgen05.mma: D[M x N] (tensor memory) += A[M x K] B[K x N] over the K of the tiles, on
/// one CTA (CtaGroup 1) or a CTA pair (CtaGroup 2: each CTA holds M/2 rows of A, N/2 of B and
/// M/2 rows of D; the pair's even CTA issues). TA/TB: __half, __nv_bfloat16, float (tf32),
/// __nv_fp8_e4m3/e5m2, __nv_fp6_e2m3/e3m2, __nv_fp4_e2m1 (f8f6f4: 16 6/4-bit values per 16 bytes,
/// the padded forms TMA writes), or __nv_fp4x2_e2m1 (packed pairs, block-scaled only). TAcc:
/// float, or __half for f16 x f16 and f8f6f4. ASmem / BSmem may be role-tagged (AOperand<L>).
template <class TA, class TB, class TAcc, class ASmem, class BSmem, int M, int N, int CtaGroup = 1,
          class BlockScale = UmmaNoBlockScale>
struct UmmaTiledMma {
  static constexpr detail::UmmaTypeInfo info_a = detail::umma_type_info<TA>, info_b = detail::umma_type_info<TB>;
  static constexpr int kind_code = detail::umma_kind_code<TA, TB, BlockScale>();
  static_assert(diag::umma_types<kind_code, info_a.value_bits, info_b.value_bits>::ok);
  static constexpr ctm::Tcgen05Kind kind = static_cast<ctm::Tcgen05Kind>(kind_code < 0 ? 0 : kind_code);
  static constexpr bool block_scaled = ctm::tcgen05_kind_is_block_scaled(kind);
  static constexpr int vec_size = detail::umma_vec_size<BlockScale>;
  static_assert(diag::umma_sf_vec_size<block_scaled, detail::umma_sf_is<BlockScale, __nv_fp8_e8m0>,
                                        detail::umma_sf_is<BlockScale, __nv_fp8_e4m3>, vec_size,
                                        info_a.packed_pair>::ok);
  static_assert(diag::umma_accumulator<kind_code, std::is_same_v<TAcc, float>, std::is_same_v<TAcc, __half>,
                                       (kind == ctm::Tcgen05Kind::f16 && info_a.type == ctm::Tcgen05Type::f16) ||
                                           kind == ctm::Tcgen05Kind::f8f6f4>::ok);
  static_assert(diag::umma_pair_m<CtaGroup, M>::ok);
  static_assert(diag::umma_shape<kind_code, CtaGroup, M, N,
                                 ctm::detail::tcgen05_idesc_shape_ok(ctm::Tcgen05InstrDesc{
                                     .kind = kind, .m = M, .n = N, .cta_group = CtaGroup})>::ok);
  static_assert(diag::umma_operand_role<0, sm90::detail::OperandRole<ASmem>::role>::ok &&
                diag::umma_operand_role<1, sm90::detail::OperandRole<BSmem>::role>::ok);

  using OpA = detail::UmmaOperand<TA, typename sm90::detail::OperandRole<ASmem>::layout>;
  using OpB = detail::UmmaOperand<TB, typename sm90::detail::OperandRole<BSmem>::layout>;
  static_assert(diag::umma_operand_extent<OpA::mn_extent, M / CtaGroup>::ok);
  static_assert(diag::umma_operand_extent<OpB::mn_extent, N / CtaGroup>::ok);
  static_assert(diag::umma_tile_k<OpA::k_extent, OpB::k_extent, OpA::k_per_instr>::ok);
  static_assert(diag::umma_major<OpA::k_major, info_a.packed_pair ? 4 : info_a.value_bits>::ok);
  static_assert(diag::umma_major<OpB::k_major, info_b.packed_pair ? 4 : info_b.value_bits>::ok);

  static constexpr int m = M, n = N, cta_group = CtaGroup;
  /// Instructions per gemm: the tiles' K over one instruction's K.
  static constexpr int k_slices = OpA::k_extent / OpA::k_per_instr;
  /// K values in the tile (packed pairs count twice).
  static constexpr int k_values = OpA::k_extent * (info_a.packed_pair ? 2 : 1);

  /// What the instruction descriptor encodes (PTX ISA "Instruction descriptor").
  static constexpr ctm::Tcgen05InstrDesc instr_desc{
      .kind = kind,
      .a = info_a.type,
      .b = info_b.type,
      .d = std::is_same_v<TAcc, __half> ? ctm::Tcgen05DType::f16 : ctm::Tcgen05DType::f32,
      .m = M,
      .n = N,
      .a_major = OpA::major,
      .b_major = OpB::major,
      .cta_group = CtaGroup,
      .scale = detail::umma_scale_type<BlockScale>()};
  /// The 32-bit instruction descriptor (scale-factor ids 0; gemm sets them per K slice).
  static constexpr std::uint32_t idesc = ctm::tcgen05_idesc_v<instr_desc>;

  /// Where D lies in this CTA's tensor memory, and how an epilogue copies it (tmem_copy.hpp).
  using Accumulator = UmmaAccumulator<M, N, CtaGroup>;
  /// Factors per row each instruction reads (the .scale_vec::NX), 0 without block scaling.
  static constexpr int sf_per_instr = block_scaled ? detail::umma_scale_vec(kind, vec_size) : 0;
  /// The scale factors of the CTA's A rows and B columns (block-scaled plans; unused otherwise).
  using SfaLayout = UmmaScaleFactorLayout<M / CtaGroup, k_values, block_scaled ? vec_size : 1, sf_per_instr>;
  using SfbLayout = UmmaScaleFactorLayout<N / CtaGroup, k_values, block_scaled ? vec_size : 1, sf_per_instr>;
  static constexpr int sf_columns = block_scaled ? SfaLayout::columns + SfbLayout::columns : 0;

  /// Tensor-memory columns for AccStages accumulators and the scale factors.
  /// @pre at most 512 [umma.tmem-columns]
  template <int AccStages = 1>
  static constexpr int tmem_columns() {
    static_assert(diag::umma_tmem_columns<Accumulator::columns, AccStages, sf_columns>::ok);
    return Accumulator::columns * AccStages + sf_columns;
  }
  /// tmem_columns rounded up to what tcgen05.alloc takes (a power of two, at least 32).
  template <int AccStages = 1>
  static constexpr std::uint32_t tmem_alloc_columns() {
    std::uint32_t c = 32;
    while (c < std::uint32_t(tmem_columns<AccStages>())) c *= 2;
    return c;
  }

#if defined(__CUDACC__)
  /// D (tensor memory at `tmem_acc`) = A B (+ D when `accumulate`) over the tiles' K: k_slices
  /// instructions, the first ignoring D when `accumulate` is false. One thread calls it (the even
  /// CTA's for a pair); commit() then signals completion.
  /// @pre a_smem / b_smem (shared::cta addresses) are multiples of OpA/OpB::repeat_bytes
  static __device__ __forceinline__ void gemm(std::uint32_t tmem_acc, std::uint32_t a_smem, std::uint32_t b_smem,
                                              bool accumulate) {
    static_assert(!block_scaled, "cute-cpp [umma.types]: a block-scaled plan's gemm takes the scale factors' "
                                 "tensor-memory addresses");
#  pragma unroll
    for (int kk = 0; kk < k_slices; ++kk)
      ctm::tcgen05_mma<kind, CtaGroup>(tmem_acc, detail::umma_desc_at(OpA::descriptor(0, kk), a_smem >> 4),
                                       detail::umma_desc_at(OpB::descriptor(0, kk), b_smem >> 4), idesc,
                                       kk > 0 || accumulate);
  }
  /// The same with the tiles as pointers to shared memory.
  static __device__ __forceinline__ void gemm(std::uint32_t tmem_acc, TA const* a_tile, TB const* b_tile,
                                              bool accumulate) {
    gemm(tmem_acc, ctm::cvta_to_shared_u32(a_tile), ctm::cvta_to_shared_u32(b_tile), accumulate);
  }
  /// Block-scaled: D = (A SFA)(B SFB) (+ D), the factors at `tmem_sfa` / `tmem_sfb` laid out by
  /// SfaLayout / SfbLayout (UmmaScaleFactorLayout::copy puts them there).
  static __device__ __forceinline__ void gemm(std::uint32_t tmem_acc, std::uint32_t a_smem, std::uint32_t b_smem,
                                              std::uint32_t tmem_sfa, std::uint32_t tmem_sfb, bool accumulate) {
    static_assert(block_scaled, "cute-cpp [umma.types]: scale factors are for block-scaled plans (UmmaBlockScale)");
    constexpr auto vec = static_cast<ctm::Tcgen05ScaleVec>(sf_per_instr);
#  pragma unroll
    for (int kk = 0; kk < k_slices; ++kk) {
      std::uint32_t const sfa = SfaLayout::tmem_for_slice(tmem_sfa, kk);
      std::uint32_t const sfb = SfbLayout::tmem_for_slice(tmem_sfb, kk);
      ctm::tcgen05_mma_block_scale<kind, vec, CtaGroup>(
          tmem_acc, detail::umma_desc_at(OpA::descriptor(0, kk), a_smem >> 4),
          detail::umma_desc_at(OpB::descriptor(0, kk), b_smem >> 4),
          ctm::tcgen05_idesc_set_sf_ids_unchecked(idesc, sfa, sfb), sfa, sfb, kk > 0 || accumulate);
    }
  }
  /// tcgen05.commit: one arrive on the mbarrier at `mbar_smem` once this thread's MMAs (and
  /// scale-factor copies) are done.
  static __device__ __forceinline__ void commit(std::uint32_t mbar_smem) {
    ctm::tcgen05_commit<CtaGroup>(mbar_smem);
  }
  /// tcgen05.commit multicast: the arrive goes to the mbarrier at the same offset in every CTA of
  /// `cta_mask` (for a pair, both CTAs: 0b11 << the even CTA's rank).
  static __device__ __forceinline__ void commit(std::uint32_t mbar_smem, std::uint16_t cta_mask) {
    ctm::tcgen05_commit_multicast_cluster<CtaGroup>(mbar_smem, cta_mask);
  }
#endif
};

}  // namespace cute_cpp::sm100
