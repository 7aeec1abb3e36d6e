// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm120/mma_block_scale.hpp: the sm_120a warp-level MMAs with FP8/FP6/FP4 inputs.
// mma.sync kind::f8f6f4 m16n8k32 (any pair of e4m3, e5m2, e3m2, e2m3, e2m1; f32 or f16
// accumulators), and the block-scaled forms: kind::mxf8f6f4 m16n8k32 scale_vec::1X with ue8m0
// scales, kind::mxf4 m16n8k64 scale_vec::2X with ue8m0 scales, kind::mxf4nvf4 m16n8k64 with
// scale_vec::2X (ue8m0) or 4X (ue4m3); and each of them with 2:4-sparse A
// (mma.sp::ordered_metadata, twice the K). CuTeDSL: the sm_120 warp MMA atoms
// (cute.nvgpu.warp MmaF8F6F4Op / block-scaled ops). Target: sm_120a only.
#include <cstdint>
#include <ctm/target.hpp>                          // detail::always_false
#include <ctm/sm120/mma_block_scale_args.hpp>      // MmaScaleSelectorA/B, MmaScaleVec, rules
#include <ctm/generated/sm120_mma_f8f6f4.hpp>      // MmaF8F6F4Type, the enumerated asm bodies
#include <ctm/common/config.hpp>                   // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

namespace detail {
template <class Target>
CTM_DEVICE void gate_mma_kind_f8f6f4() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM120_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm120a-only]: mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4 (and its "
      "mma.sp m16n8k64 form) exists only on sm_120a here (FP6/FP4 mma.sync); build this "
      "translation unit for 120a only (CUDA_ARCHITECTURES 120a)");
#  endif
}
template <class Target>
CTM_DEVICE void gate_mma_block_scale() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM120_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm120a-only]: mma.sync with .block_scale (kind::mxf8f6f4, mxf4, mxf4nvf4) "
      "exists only on sm_120a; build this translation unit for 120a only (CUDA_ARCHITECTURES 120a)");
#  endif
}
}  // namespace detail

// ---- kind::f8f6f4 ----

/// mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.<A>.<B>.f32 d, a, b, c.
///   ctm::mma_m16n8k32_row_col_kind_f8f6f4<MmaF8F6F4Type::e4m3, MmaF8F6F4Type::e2m1>(d, a, b, c);
template <MmaF8F6F4Type A, MmaF8F6F4Type B, class Target = void>
CTM_DEVICE void mma_m16n8k32_row_col_kind_f8f6f4(float (&d)[4], std::uint32_t const (&a)[4],
                                                 std::uint32_t const (&b)[2], float const (&c)[4]) {
  detail::gate_mma_kind_f8f6f4<Target>();
  detail::mma_m16n8k32_kind_f8f6f4_f32_impl<A, B>(d, a, b, c);
}

/// mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f16.<A>.<B>.f16 d, a, b, c (packed f16x2).
template <MmaF8F6F4Type A, MmaF8F6F4Type B, class Target = void>
CTM_DEVICE void mma_m16n8k32_row_col_kind_f8f6f4(std::uint32_t (&d)[2], std::uint32_t const (&a)[4],
                                                 std::uint32_t const (&b)[2], std::uint32_t const (&c)[2]) {
  detail::gate_mma_kind_f8f6f4<Target>();
  detail::mma_m16n8k32_kind_f8f6f4_f16_impl<A, B>(d, a, b, c);
}

// ---- block-scaled ----

/// mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.<A>.<B>.f32.ue8m0
///   d, a, b, c, sfa, {byte-id-a, thread-id-a}, sfb, {byte-id-b, thread-id-b}:
/// D = (A * SFA) (B * SFB) + C with one ue8m0 factor per row of A and column of B.
///   ctm::mma_m16n8k32_row_col_kind_mxf8f6f4_block_scale<MmaF8F6F4Type::e4m3, MmaF8F6F4Type::e4m3>(
///       d, a, b, c, sfa, ctm::MmaScaleSelectorA<0, 0>{}, sfb, ctm::MmaScaleSelectorB<0, 0>{});
/// @pre byte-ids 0..3 [mma.block-scale.byte-id]; thread-id-a 0..1, thread-id-b 0..3
///      [mma.block-scale.thread-id]
template <MmaF8F6F4Type A, MmaF8F6F4Type B, class Target = void, int ByteA, int ThreadA, int ByteB,
          int ThreadB>
CTM_DEVICE void mma_m16n8k32_row_col_kind_mxf8f6f4_block_scale(
    float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[2], float const (&c)[4],
    std::uint32_t sfa, MmaScaleSelectorA<ByteA, ThreadA>, std::uint32_t sfb,
    MmaScaleSelectorB<ByteB, ThreadB>) {
  static_assert(diag::mma_block_scale_byte_ids<MmaScaleVec::x1, ByteA, ByteB>::ok);
  detail::gate_mma_block_scale<Target>();
  detail::mma_m16n8k32_kind_mxf8f6f4_impl<A, B, ByteA, ThreadA, ByteB, ThreadB>(d, a, b, c, sfa, sfb);
}

/// mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0
///   d, a, b, c, sfa, {byte-id-a, thread-id-a}, sfb, {byte-id-b, thread-id-b}: two ue8m0
/// factors per row of A / column of B (one per 32 K-elements); a and b hold 32 e2m1 each.
/// @pre byte-ids 0 or 2 [mma.block-scale.byte-id]; thread-ids as above [mma.block-scale.thread-id]
template <class Target = void, int ByteA, int ThreadA, int ByteB, int ThreadB>
CTM_DEVICE void mma_m16n8k64_row_col_kind_mxf4_block_scale(
    float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[2], float const (&c)[4],
    std::uint32_t sfa, MmaScaleSelectorA<ByteA, ThreadA>, std::uint32_t sfb,
    MmaScaleSelectorB<ByteB, ThreadB>) {
  static_assert(diag::mma_block_scale_byte_ids<MmaScaleVec::x2, ByteA, ByteB>::ok);
  detail::gate_mma_block_scale<Target>();
  asm("mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13}, %14, {%15, %16}, %17, {%18, %19};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]),
        "r"(sfa), "n"(ByteA), "n"(ThreadA), "r"(sfb), "n"(ByteB), "n"(ThreadB));
}

/// mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::<Vec>.f32.e2m1.e2m1.f32.<stype>
/// with Vec = x2 (ue8m0 factors, one per 32 K-elements) or x4 (ue4m3 factors, one per 16:
/// NVFP4). The scale type follows from Vec, as ptxas requires.
///   ctm::mma_m16n8k64_row_col_kind_mxf4nvf4_block_scale<ctm::MmaScaleVec::x4>(
///       d, a, b, c, sfa, ctm::MmaScaleSelectorA<0, 0>{}, sfb, ctm::MmaScaleSelectorB<0, 0>{});
/// @pre Vec is x2 or x4 [mma.block-scale.scale-vec]; byte-ids 0 or 2 (x2), 0 (x4)
///      [mma.block-scale.byte-id]
template <MmaScaleVec Vec, class Target = void, int ByteA, int ThreadA, int ByteB, int ThreadB>
CTM_DEVICE void mma_m16n8k64_row_col_kind_mxf4nvf4_block_scale(
    float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[2], float const (&c)[4],
    std::uint32_t sfa, MmaScaleSelectorA<ByteA, ThreadA>, std::uint32_t sfb,
    MmaScaleSelectorB<ByteB, ThreadB>) {
  static_assert(Vec == MmaScaleVec::x2 || Vec == MmaScaleVec::x4,
                "ctm [mma.block-scale.scale-vec]: kind::mxf4nvf4 takes scale_vec::2X (ue8m0) or "
                "scale_vec::4X (ue4m3)");
  static_assert(diag::mma_block_scale_byte_ids<Vec, ByteA, ByteB>::ok);
  detail::gate_mma_block_scale<Target>();
  if constexpr (Vec == MmaScaleVec::x2)
    asm("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13}, %14, {%15, %16}, %17, {%18, %19};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]),
          "r"(sfa), "n"(ByteA), "n"(ThreadA), "r"(sfb), "n"(ByteB), "n"(ThreadB));
  else if constexpr (Vec == MmaScaleVec::x4)
    asm("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13}, %14, {%15, %16}, %17, {%18, %19};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]),
          "r"(sfa), "n"(ByteA), "n"(ThreadA), "r"(sfb), "n"(ByteB), "n"(ThreadB));
}

// ---- sparse A: mma.sp::ordered_metadata ----
// A is 2:4 structured-sparse along K (A holds half of K), `e` is the metadata register; the
// sparsity selector is 0, the only value ptxas accepts for these shapes (so it is not a
// parameter). K doubles over the dense forms: m16n8k64 for FP8/FP6/FP4 element pairs,
// m16n8k128 for mxf4/mxf4nvf4; B takes 4 registers.

/// mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.<A>.<B>.f32
/// d, a, b, c, e, 0.
template <MmaF8F6F4Type A, MmaF8F6F4Type B, class Target = void>
CTM_DEVICE void mma_sp_ordered_metadata_m16n8k64_row_col_kind_f8f6f4(
    float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[4], float const (&c)[4],
    std::uint32_t e) {
  detail::gate_mma_kind_f8f6f4<Target>();
  detail::mma_sp_m16n8k64_kind_f8f6f4_f32_impl<A, B>(d, a, b, c, e);
}

/// The same with f16 accumulators (packed f16x2).
template <MmaF8F6F4Type A, MmaF8F6F4Type B, class Target = void>
CTM_DEVICE void mma_sp_ordered_metadata_m16n8k64_row_col_kind_f8f6f4(
    std::uint32_t (&d)[2], std::uint32_t const (&a)[4], std::uint32_t const (&b)[4],
    std::uint32_t const (&c)[2], std::uint32_t e) {
  detail::gate_mma_kind_f8f6f4<Target>();
  detail::mma_sp_m16n8k64_kind_f8f6f4_f16_impl<A, B>(d, a, b, c, e);
}

/// mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X
/// .f32.<A>.<B>.f32.ue8m0 d, a, b, c, e, 0, sfa, {byte-id-a, thread-id-a}, sfb, {byte-id-b, thread-id-b}.
/// @pre as the dense form [mma.block-scale.byte-id] [mma.block-scale.thread-id]
template <MmaF8F6F4Type A, MmaF8F6F4Type B, class Target = void, int ByteA, int ThreadA, int ByteB,
          int ThreadB>
CTM_DEVICE void mma_sp_ordered_metadata_m16n8k64_row_col_kind_mxf8f6f4_block_scale(
    float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[4], float const (&c)[4],
    std::uint32_t e, std::uint32_t sfa, MmaScaleSelectorA<ByteA, ThreadA>, std::uint32_t sfb,
    MmaScaleSelectorB<ByteB, ThreadB>) {
  static_assert(diag::mma_block_scale_byte_ids<MmaScaleVec::x1, ByteA, ByteB>::ok);
  detail::gate_mma_block_scale<Target>();
  detail::mma_sp_m16n8k64_kind_mxf8f6f4_impl<A, B, ByteA, ThreadA, ByteB, ThreadB>(d, a, b, c, e, sfa, sfb);
}

/// mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.scale_vec::2X
/// .f32.e2m1.e2m1.f32.ue8m0 d, a, b, c, e, 0, sfa, {..}, sfb, {..}.
template <class Target = void, int ByteA, int ThreadA, int ByteB, int ThreadB>
CTM_DEVICE void mma_sp_ordered_metadata_m16n8k128_row_col_kind_mxf4_block_scale(
    float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[4], float const (&c)[4],
    std::uint32_t e, std::uint32_t sfa, MmaScaleSelectorA<ByteA, ThreadA>, std::uint32_t sfb,
    MmaScaleSelectorB<ByteB, ThreadB>) {
  static_assert(diag::mma_block_scale_byte_ids<MmaScaleVec::x2, ByteA, ByteB>::ok);
  detail::gate_mma_block_scale<Target>();
  asm("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.scale_vec::2X"
      ".f32.e2m1.e2m1.f32.ue8m0 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, "
      "{%12, %13, %14, %15}, %16, 0, %17, {%18, %19}, %20, {%21, %22};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]),
        "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e),
        "r"(sfa), "n"(ByteA), "n"(ThreadA), "r"(sfb), "n"(ByteB), "n"(ThreadB));
}

/// mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale
/// .scale_vec::<2X|4X>.f32.e2m1.e2m1.f32.<ue8m0|ue4m3> d, a, b, c, e, 0, sfa, {..}, sfb, {..}.
/// @pre Vec is x2 or x4 [mma.block-scale.scale-vec]; byte-ids per Vec [mma.block-scale.byte-id]
template <MmaScaleVec Vec, class Target = void, int ByteA, int ThreadA, int ByteB, int ThreadB>
CTM_DEVICE void mma_sp_ordered_metadata_m16n8k128_row_col_kind_mxf4nvf4_block_scale(
    float (&d)[4], std::uint32_t const (&a)[4], std::uint32_t const (&b)[4], float const (&c)[4],
    std::uint32_t e, std::uint32_t sfa, MmaScaleSelectorA<ByteA, ThreadA>, std::uint32_t sfb,
    MmaScaleSelectorB<ByteB, ThreadB>) {
  static_assert(Vec == MmaScaleVec::x2 || Vec == MmaScaleVec::x4,
                "ctm [mma.block-scale.scale-vec]: kind::mxf4nvf4 takes scale_vec::2X (ue8m0) or "
                "scale_vec::4X (ue4m3)");
  static_assert(diag::mma_block_scale_byte_ids<Vec, ByteA, ByteB>::ok);
  detail::gate_mma_block_scale<Target>();
  if constexpr (Vec == MmaScaleVec::x2)
    asm("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X"
        ".f32.e2m1.e2m1.f32.ue8m0 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, "
        "{%12, %13, %14, %15}, %16, 0, %17, {%18, %19}, %20, {%21, %22};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e),
          "r"(sfa), "n"(ByteA), "n"(ThreadA), "r"(sfb), "n"(ByteB), "n"(ThreadB));
  else if constexpr (Vec == MmaScaleVec::x4)
    asm("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X"
        ".f32.e2m1.e2m1.f32.ue4m3 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, "
        "{%12, %13, %14, %15}, %16, 0, %17, {%18, %19}, %20, {%21, %22};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]),
          "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]), "r"(e),
          "r"(sfa), "n"(ByteA), "n"(ThreadA), "r"(sfb), "n"(ByteB), "n"(ThreadB));
}

}  // namespace ctm
#endif  // __CUDACC__
