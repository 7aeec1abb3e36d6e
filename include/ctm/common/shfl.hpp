// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Warp shuffles (shfl.sync idx/up/down/bfly on b32), votes (vote.sync ballot/any/all) and warp reductions (redux.sync on
// integers everywhere; redux.sync.min/max.f32 on sm_100a only). CuTeDSL: cute.arch.shuffle_sync*,
// warp_reduction_* underneath. Targets: sm_90a, sm_100a, sm_120a (f32 redux: sm_100a).
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

// ---- shfl.sync ----
// Operand order is PTX's: value, lane/delta/mask b, clamp-and-segment c, membermask. The
// usual c is 0x1f for idx/down/bfly and 0 for up (whole-warp segments).

/// shfl.sync.idx.b32 d, a, src_lane, c, membermask: a from lane src_lane.
CTM_DEVICE std::uint32_t shfl_sync_idx_b32(std::uint32_t a, std::uint32_t src_lane,
                                           std::uint32_t c = 0x1f,
                                           std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;\n"
               : "=r"(d)
               : "r"(a), "r"(src_lane), "r"(c), "r"(membermask));
  return d;
}
/// shfl.sync.up.b32 d, a, delta, c, membermask: a from lane (lane - delta).
CTM_DEVICE std::uint32_t shfl_sync_up_b32(std::uint32_t a, std::uint32_t delta,
                                          std::uint32_t c = 0,
                                          std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d;
  asm volatile("shfl.sync.up.b32 %0, %1, %2, %3, %4;\n"
               : "=r"(d)
               : "r"(a), "r"(delta), "r"(c), "r"(membermask));
  return d;
}
/// shfl.sync.down.b32 d, a, delta, c, membermask: a from lane (lane + delta).
CTM_DEVICE std::uint32_t shfl_sync_down_b32(std::uint32_t a, std::uint32_t delta,
                                            std::uint32_t c = 0x1f,
                                            std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, %4;\n"
               : "=r"(d)
               : "r"(a), "r"(delta), "r"(c), "r"(membermask));
  return d;
}
/// shfl.sync.bfly.b32 d, a, lane_mask, c, membermask: a from lane (lane ^ lane_mask).
CTM_DEVICE std::uint32_t shfl_sync_bfly_b32(std::uint32_t a, std::uint32_t lane_mask,
                                            std::uint32_t c = 0x1f,
                                            std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;\n"
               : "=r"(d)
               : "r"(a), "r"(lane_mask), "r"(c), "r"(membermask));
  return d;
}
/// The b32 shuffles on a float's bits.
CTM_DEVICE float shfl_sync_idx_b32(float a, std::uint32_t src_lane, std::uint32_t c = 0x1f,
                                   std::uint32_t membermask = 0xffffffffu) {
  return __uint_as_float(shfl_sync_idx_b32(__float_as_uint(a), src_lane, c, membermask));
}
CTM_DEVICE float shfl_sync_up_b32(float a, std::uint32_t delta, std::uint32_t c = 0,
                                  std::uint32_t membermask = 0xffffffffu) {
  return __uint_as_float(shfl_sync_up_b32(__float_as_uint(a), delta, c, membermask));
}
CTM_DEVICE float shfl_sync_down_b32(float a, std::uint32_t delta, std::uint32_t c = 0x1f,
                                    std::uint32_t membermask = 0xffffffffu) {
  return __uint_as_float(shfl_sync_down_b32(__float_as_uint(a), delta, c, membermask));
}
CTM_DEVICE float shfl_sync_bfly_b32(float a, std::uint32_t lane_mask, std::uint32_t c = 0x1f,
                                    std::uint32_t membermask = 0xffffffffu) {
  return __uint_as_float(shfl_sync_bfly_b32(__float_as_uint(a), lane_mask, c, membermask));
}

// ---- vote.sync ----

/// vote.sync.ballot.b32 d, p, membermask: bit i of the result is lane i's predicate.
CTM_DEVICE std::uint32_t vote_sync_ballot_b32(bool pred, std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d;
  asm volatile("{\n.reg .pred p;\nsetp.ne.u32 p, %1, 0;\nvote.sync.ballot.b32 %0, p, %2;\n}\n"
               : "=r"(d)
               : "r"(static_cast<std::uint32_t>(pred)), "r"(membermask));
  return d;
}
/// vote.sync.any.pred: true if any lane of membermask has pred.
CTM_DEVICE bool vote_sync_any_pred(bool pred, std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d;
  asm volatile("{\n.reg .pred p, q;\nsetp.ne.u32 p, %1, 0;\nvote.sync.any.pred q, p, %2;\nselp.u32 %0, 1, 0, q;\n}\n"
               : "=r"(d)
               : "r"(static_cast<std::uint32_t>(pred)), "r"(membermask));
  return d != 0;
}
/// vote.sync.all.pred: true if every lane of membermask has pred.
CTM_DEVICE bool vote_sync_all_pred(bool pred, std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d;
  asm volatile("{\n.reg .pred p, q;\nsetp.ne.u32 p, %1, 0;\nvote.sync.all.pred q, p, %2;\nselp.u32 %0, 1, 0, q;\n}\n"
               : "=r"(d)
               : "r"(static_cast<std::uint32_t>(pred)), "r"(membermask));
  return d != 0;
}

// ---- redux.sync ----

/// redux.sync.add.u32 d, a, membermask: the sum over the lanes of membermask, in each of them.
CTM_DEVICE std::uint32_t redux_sync_add_u32(std::uint32_t a, std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d; asm volatile("redux.sync.add.u32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(membermask)); return d;
}
/// redux.sync.add.s32.
CTM_DEVICE std::int32_t redux_sync_add_s32(std::int32_t a, std::uint32_t membermask = 0xffffffffu) {
  std::int32_t d; asm volatile("redux.sync.add.s32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(membermask)); return d;
}
/// redux.sync.min.u32.
CTM_DEVICE std::uint32_t redux_sync_min_u32(std::uint32_t a, std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d; asm volatile("redux.sync.min.u32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(membermask)); return d;
}
/// redux.sync.max.u32.
CTM_DEVICE std::uint32_t redux_sync_max_u32(std::uint32_t a, std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d; asm volatile("redux.sync.max.u32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(membermask)); return d;
}
/// redux.sync.min.s32.
CTM_DEVICE std::int32_t redux_sync_min_s32(std::int32_t a, std::uint32_t membermask = 0xffffffffu) {
  std::int32_t d; asm volatile("redux.sync.min.s32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(membermask)); return d;
}
/// redux.sync.max.s32.
CTM_DEVICE std::int32_t redux_sync_max_s32(std::int32_t a, std::uint32_t membermask = 0xffffffffu) {
  std::int32_t d; asm volatile("redux.sync.max.s32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(membermask)); return d;
}
/// redux.sync.and.b32.
CTM_DEVICE std::uint32_t redux_sync_and_b32(std::uint32_t a, std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d; asm volatile("redux.sync.and.b32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(membermask)); return d;
}
/// redux.sync.or.b32.
CTM_DEVICE std::uint32_t redux_sync_or_b32(std::uint32_t a, std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d; asm volatile("redux.sync.or.b32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(membermask)); return d;
}
/// redux.sync.xor.b32.
CTM_DEVICE std::uint32_t redux_sync_xor_b32(std::uint32_t a, std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t d; asm volatile("redux.sync.xor.b32 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(membermask)); return d;
}

/// redux.sync.min.f32 d, a, membermask. Target: sm_100a only (ptxas rejects it on sm_90a and
/// sm_120a); elsewhere reduce with shfl_sync_bfly_b32.
template <class Target = void>
CTM_DEVICE float redux_sync_min_f32(float a, std::uint32_t membermask = 0xffffffffu) {
  float d = a;
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  asm volatile("redux.sync.min.f32 %0, %1, %2;\n" : "=f"(d) : "f"(a), "r"(membermask));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-only]: redux.sync.min.f32 exists only on sm_100a; "
                "reduce with shfl_sync_bfly_b32 on sm_90a and sm_120a");
#  endif
#endif
  return d;
}

/// redux.sync.max.f32 d, a, membermask. Target: sm_100a only.
template <class Target = void>
CTM_DEVICE float redux_sync_max_f32(float a, std::uint32_t membermask = 0xffffffffu) {
  float d = a;
#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  asm volatile("redux.sync.max.f32 %0, %1, %2;\n" : "=f"(d) : "f"(a), "r"(membermask));
#  else
  static_assert(detail::always_false<Target>,
                "ctm [target.sm100a-only]: redux.sync.max.f32 exists only on sm_100a; "
                "reduce with shfl_sync_bfly_b32 on sm_90a and sm_120a");
#  endif
#endif
  return d;
}

}  // namespace ctm
#endif
