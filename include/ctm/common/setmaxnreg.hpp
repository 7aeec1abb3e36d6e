// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// setmaxnreg.{inc,dec}.sync.aligned.u32: a warpgroup raises or lowers its per-thread register
// budget (warp-specialised kernels: producers dec, consumers inc). The count is an immediate,
// a multiple of 8 in 24..256, checked at compile time. CuTeDSL: cute.arch.setmaxregister_*.
// Targets: sm_90a, sm_100a, sm_120a (the PTX ISA lists all three; ptxas 13.0 accepts all three).
#include <ctm/common/config.hpp>  // CTM_DEVICE

namespace ctm::diag {
/// Rule setmaxnreg.count: the register count is a multiple of 8 in 24..256.
template <int RegCount>
struct setmaxnreg_count {
  static_assert(RegCount >= 24 && RegCount <= 256 && RegCount % 8 == 0,
                "ctm [setmaxnreg.count]: setmaxnreg takes a register count that is a multiple of 8 in 24..256");
  static constexpr bool ok = true;
};
}  // namespace ctm::diag

#if defined(__CUDACC__)
namespace ctm {

/// setmaxnreg.inc.sync.aligned.u32 RegCount: blocks until the CTA's pool can give this warp
/// RegCount registers per thread. Every warp of the warpgroup executes it.
template <int RegCount>
CTM_DEVICE void setmaxnreg_inc() {
  static_assert(diag::setmaxnreg_count<RegCount>::ok);
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(RegCount));
}

/// setmaxnreg.dec.sync.aligned.u32 RegCount: releases registers down to RegCount per thread.
template <int RegCount>
CTM_DEVICE void setmaxnreg_dec() {
  static_assert(diag::setmaxnreg_count<RegCount>::ok);
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(RegCount));
}

}  // namespace ctm
#endif
