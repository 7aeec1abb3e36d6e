// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// wgmma (sm_90a): wgmma.fence, wgmma.commit_group, wgmma.wait_group, and
// wgmma.mma_async.sync.aligned.m64nNkK for f16, bf16, tf32, e4m3/e5m2 and s8/u8 inputs, every N
// the instruction allows, A from shared memory (a descriptor) or from registers, with scale-d,
// imm-scale-a/b and the transpose flags where PTX allows them. Every rule is a static_assert
// naming the values. CuTeDSL: cute.nvgpu.warpgroup.MmaF16BF16Op / MmaF8Op underneath.
// Target: sm_90a only; a compile error naming the instruction elsewhere.
#include <cstdint>
#include <type_traits>
#include <ctm/common/config.hpp>      // CTM_DEVICE, DataType, detail::always_false
#include <ctm/generated/wgmma_bf16.hpp>  // the operand lists, one per N
#include <ctm/generated/wgmma_f16.hpp>
#include <ctm/generated/wgmma_fp8.hpp>
#include <ctm/generated/wgmma_int8.hpp>
#include <ctm/generated/wgmma_tf32.hpp>
#include <ctm/sm90/wgmma_desc.hpp>     // WgmmaMajor, the descriptor encoders

namespace ctm {

namespace generated {
// The per-N operand lists (ctm/generated/wgmma_*.hpp), defined only in the sm_90a device pass.
template <int N> struct wgmma_f16;
template <int N> struct wgmma_bf16;
template <int N> struct wgmma_tf32;
template <int N> struct wgmma_fp8;
template <int N> struct wgmma_int8;
}  // namespace generated

namespace detail {
CTM_HD constexpr bool wgmma_is_fp8(DataType t) { return t == DataType::e4m3 || t == DataType::e5m2; }
CTM_HD constexpr bool wgmma_is_int8(DataType t) { return t == DataType::s8 || t == DataType::u8; }

/// K of one wgmma for the input type: 16 for f16/bf16, 8 for tf32, 32 for fp8 and int8.
CTM_HD constexpr int wgmma_k(DataType a) {
  return a == DataType::tf32 ? 8 : (wgmma_is_fp8(a) || wgmma_is_int8(a)) ? 32 : 16;
}
CTM_HD constexpr bool wgmma_types_valid(DataType d, DataType a, DataType b) {
  if (a == DataType::f16) return b == DataType::f16 && (d == DataType::f32 || d == DataType::f16);
  if (a == DataType::bf16) return b == DataType::bf16 && d == DataType::f32;
  if (a == DataType::tf32) return b == DataType::tf32 && d == DataType::f32;
  if (wgmma_is_fp8(a)) return wgmma_is_fp8(b) && (d == DataType::f32 || d == DataType::f16);
  if (wgmma_is_int8(a)) return wgmma_is_int8(b) && d == DataType::s32;
  return false;
}
CTM_HD constexpr bool wgmma_n_valid(int n, DataType a) {
  if (n < 8 || n > 256 || n % 8 != 0) return false;
  if (wgmma_is_int8(a)) return n <= 24 || n % 16 == 0;
  return true;
}
}  // namespace detail

/// The accumulator a thread holds for wgmma m64nN with D type `D`: N/2 floats (f32), N/4
/// packed f16 pairs (f16), N/2 ints (s32).
template <int N, DataType D>
using wgmma_accumulator_t = std::conditional_t<
    D == DataType::f32, float[N / 2],
    std::conditional_t<D == DataType::f16, std::uint32_t[N / 4], std::int32_t[N / 2]>>;

namespace diag {
/// Rule wgmma.types: the (D, A, B) combination exists.
template <DataType D, DataType A, DataType B>
struct wgmma_types {
  static_assert(detail::wgmma_types_valid(D, A, B),
                "ctm [wgmma.types]: wgmma.mma_async takes f16 x f16 -> f16|f32, bf16 x bf16 -> f32, "
                "tf32 x tf32 -> f32, e4m3|e5m2 x e4m3|e5m2 -> f16|f32, s8|u8 x s8|u8 -> s32");
  static constexpr bool ok = detail::wgmma_types_valid(D, A, B);
};
/// Rule wgmma.n: N is a multiple of 8 in 8..256; for s8/u8 also 8, 16, 24 or a multiple of 16.
template <int N, DataType A>
struct wgmma_n {
  static_assert(detail::wgmma_n_valid(N, A),
                "ctm [wgmma.n]: wgmma.mma_async needs N a multiple of 8 in 8..256 (s8/u8 inputs: 8, 16, 24 or a multiple of 16 up to 256)");
  static constexpr bool ok = detail::wgmma_n_valid(N, A);
};
/// Rule wgmma.transpose: only f16 and bf16 operands may be M/N-major in shared memory.
template <DataType A, WgmmaMajor MajorA, WgmmaMajor MajorB>
struct wgmma_transpose {
  static constexpr bool ok = (A == DataType::f16 || A == DataType::bf16) ||
                             (MajorA == WgmmaMajor::k && MajorB == WgmmaMajor::k);
  static_assert(ok, "ctm [wgmma.transpose]: tf32, fp8 and int8 wgmma operands must be K-major in shared memory (the transpose flags exist for f16 and bf16 only)");
};
/// Rule wgmma.scale-ab: imm-scale-a/b are 1 or -1, and the integer kinds have none (1).
template <DataType A, int ScaleA, int ScaleB>
struct wgmma_scale_ab {
  static constexpr bool ok = detail::wgmma_is_int8(A)
                                 ? (ScaleA == 1 && ScaleB == 1)
                                 : ((ScaleA == 1 || ScaleA == -1) && (ScaleB == 1 || ScaleB == -1));
  static_assert(ok, "ctm [wgmma.scale-ab]: imm-scale-a and imm-scale-b are 1 or -1, and must stay 1 for s8/u8 inputs");
};
/// Rule wgmma.accumulator: the accumulator argument is wgmma_accumulator_t<N, D>.
template <int N, DataType D, class Acc>
struct wgmma_accumulator {
  static constexpr bool ok = std::is_same_v<Acc, wgmma_accumulator_t<N, D>>;
  static_assert(ok, "ctm [wgmma.accumulator]: the accumulator must be ctm::wgmma_accumulator_t<N, D>: float[N/2] for f32, std::uint32_t[N/4] for f16, std::int32_t[N/2] for s32");
};
/// Rule wgmma.a-registers: with A in registers, A has no shared-memory major-ness to transpose.
template <WgmmaMajor MajorA>
struct wgmma_a_registers {
  static constexpr bool ok = MajorA == WgmmaMajor::k;
  static_assert(ok, "ctm [wgmma.a-registers]: A from registers takes no transpose flag: leave MajorA as WgmmaMajor::k");
};
}  // namespace diag

#if defined(__CUDACC__)

// ---- fence / commit / wait ----

/// wgmma.fence.sync.aligned: orders register and shared-memory accesses before the
/// wgmma.mma_async that follow (before the first wgmma, and after touching the accumulators).
template <class Target = void>
CTM_DEVICE void wgmma_fence() {
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm90a-only]: wgmma.fence.sync.aligned exists only on sm_90a; "
                "build this translation unit for 90a only (CUDA_ARCHITECTURES 90a)");
#  endif
#endif
}

/// wgmma.commit_group.sync.aligned: closes the group of wgmma.mma_async issued since the last.
template <class Target = void>
CTM_DEVICE void wgmma_commit_group() {
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm90a-only]: wgmma.commit_group.sync.aligned exists only on sm_90a; "
                "build this translation unit for 90a only (CUDA_ARCHITECTURES 90a)");
#  endif
#endif
}

/// wgmma.wait_group.sync.aligned N: waits until at most N wgmma groups are pending; then their
/// accumulators may be read.
template <int N, class Target = void>
CTM_DEVICE void wgmma_wait_group() {
  static_assert(N >= 0 && N <= 7, "ctm [wgmma.wait-group]: wgmma.wait_group takes a count in 0..7");
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm90a-only]: wgmma.wait_group.sync.aligned exists only on sm_90a; "
                "build this translation unit for 90a only (CUDA_ARCHITECTURES 90a)");
#  endif
#endif
}

/// Keeps the compiler from moving accesses to an accumulator across wgmma_fence /
/// wgmma_wait_group (an empty asm that "writes" each register; no instruction is emitted).
template <class T, int Size>
CTM_DEVICE void wgmma_fence_operand(T (&acc)[Size]) {
  for (int i = 0; i < Size; ++i) {
    if constexpr (sizeof(T) == 4 && std::is_floating_point_v<T>) {
      asm volatile("" : "+f"(acc[i])::"memory");
    } else {
      asm volatile("" : "+r"(acc[i])::"memory");
    }
  }
}

// ---- mma_async ----

namespace detail {
template <int N, DataType D, DataType A, DataType B, WgmmaMajor MajorA, WgmmaMajor MajorB, int ScaleA,
          int ScaleB, bool Satfinite, class Acc, class AOperand>
CTM_DEVICE void wgmma_dispatch(Acc& d, AOperand const& a, std::uint64_t desc_b, std::uint32_t scale_d) {
  constexpr bool a_regs = !std::is_same_v<AOperand, std::uint64_t>;
  constexpr int ta = static_cast<int>(MajorA), tb = static_cast<int>(MajorB);
  if constexpr (A == DataType::f16) {
    if constexpr (a_regs) generated::wgmma_f16<N>::template rs<ScaleA, ScaleB, tb>(d, a, desc_b, scale_d);
    else generated::wgmma_f16<N>::template ss<ScaleA, ScaleB, ta, tb>(d, a, desc_b, scale_d);
  } else if constexpr (A == DataType::bf16) {
    if constexpr (a_regs) generated::wgmma_bf16<N>::template rs<ScaleA, ScaleB, tb>(d, a, desc_b, scale_d);
    else generated::wgmma_bf16<N>::template ss<ScaleA, ScaleB, ta, tb>(d, a, desc_b, scale_d);
  } else if constexpr (A == DataType::tf32) {
    if constexpr (a_regs) generated::wgmma_tf32<N>::template rs<ScaleA, ScaleB>(d, a, desc_b, scale_d);
    else generated::wgmma_tf32<N>::template ss<ScaleA, ScaleB>(d, a, desc_b, scale_d);
  } else if constexpr (wgmma_is_fp8(A)) {
    if constexpr (a_regs) generated::wgmma_fp8<N>::template rs<A, B, ScaleA, ScaleB>(d, a, desc_b, scale_d);
    else generated::wgmma_fp8<N>::template ss<A, B, ScaleA, ScaleB>(d, a, desc_b, scale_d);
  } else {
    if constexpr (a_regs) generated::wgmma_int8<N>::template rs<A, B, Satfinite>(d, a, desc_b, scale_d);
    else generated::wgmma_int8<N>::template ss<A, B, Satfinite>(d, a, desc_b, scale_d);
  }
}
template <int N, DataType D, DataType A, DataType B, WgmmaMajor MajorA, WgmmaMajor MajorB, int ScaleA,
          int ScaleB, class Acc>
inline constexpr bool wgmma_rules_hold =
         diag::wgmma_types<D, A, B>::ok && diag::wgmma_n<N, A>::ok &&
         diag::wgmma_transpose<A, MajorA, MajorB>::ok && diag::wgmma_scale_ab<A, ScaleA, ScaleB>::ok &&
         diag::wgmma_accumulator<N, D, Acc>::ok;
}  // namespace detail

/// wgmma.mma_async.sync.aligned.m64nNkK.D.A.B d, a-desc, b-desc, scale-d, imm-scale-a,
/// imm-scale-b, imm-trans-a, imm-trans-b: D = A·B + (scale_d ? D : 0), for one warpgroup,
/// A (64xK) and B (KxN) in shared memory, described by wgmma descriptors (wgmma_desc.hpp).
///   float acc[64];   // wgmma_accumulator_t<128, DataType::f32>
///   ctm::wgmma_mma_async<128, DataType::f32, DataType::bf16, DataType::bf16>(acc, da, db, 1);
/// @pre [wgmma.types] [wgmma.n] [wgmma.transpose] [wgmma.scale-ab] [wgmma.accumulator], checked
///      at compile time; Satfinite (s32 only) adds .satfinite.
template <int N, DataType D, DataType A, DataType B, WgmmaMajor MajorA = WgmmaMajor::k,
          WgmmaMajor MajorB = WgmmaMajor::k, int ScaleA = 1, int ScaleB = 1, bool Satfinite = false,
          class Acc>
CTM_DEVICE void wgmma_mma_async(Acc& d, std::uint64_t desc_a, std::uint64_t desc_b,
                                std::uint32_t scale_d) {
  constexpr bool ok = detail::wgmma_rules_hold<N, D, A, B, MajorA, MajorB, ScaleA, ScaleB, Acc>;
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (ok)
    detail::wgmma_dispatch<N, D, A, B, MajorA, MajorB, ScaleA, ScaleB, Satfinite>(d, desc_a, desc_b, scale_d);
#  else
  static_assert(detail::always_false<Acc>,
                "ctm [target.sm90a-only]: wgmma.mma_async exists only on sm_90a; build this "
                "translation unit for 90a only (CUDA_ARCHITECTURES 90a), or use tcgen05.mma (sm_100a) / mma.sync");
#  endif
#endif
  (void)ok;
}

/// wgmma.mma_async with A from registers: a[4] holds this thread's A fragment (f16/bf16 pairs,
/// tf32 values or four fp8/int8 bytes per register); B in shared memory (descriptor).
template <int N, DataType D, DataType A, DataType B, WgmmaMajor MajorA = WgmmaMajor::k,
          WgmmaMajor MajorB = WgmmaMajor::k, int ScaleA = 1, int ScaleB = 1, bool Satfinite = false,
          class Acc>
CTM_DEVICE void wgmma_mma_async(Acc& d, std::uint32_t const (&a)[4], std::uint64_t desc_b,
                                std::uint32_t scale_d) {
  constexpr bool ok = detail::wgmma_rules_hold<N, D, A, B, MajorA, MajorB, ScaleA, ScaleB, Acc> &&
                      diag::wgmma_a_registers<MajorA>::ok;
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (ok)
    detail::wgmma_dispatch<N, D, A, B, MajorA, MajorB, ScaleA, ScaleB, Satfinite>(d, a, desc_b, scale_d);
#  else
  static_assert(detail::always_false<Acc>,
                "ctm [target.sm90a-only]: wgmma.mma_async exists only on sm_90a; build this "
                "translation unit for 90a only (CUDA_ARCHITECTURES 90a), or use tcgen05.mma (sm_100a) / mma.sync");
#  endif
#endif
  (void)ok;
}

#endif  // __CUDACC__

}  // namespace ctm
