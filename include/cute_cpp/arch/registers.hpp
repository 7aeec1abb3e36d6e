// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Warpgroup register budgets (setmaxnreg): a warp-specialised kernel moves registers from its
// producer warpgroups to its consumers. The counts of a CTA's warpgroups must add up to what its
// launch gives them (the plan checks it). CuTeDSL: cute.arch.setmaxregister_increase /
// setmaxregister_decrease, warpgroup_reg_alloc / warpgroup_reg_dealloc.
#include <ctm/common/fence.hpp>       // opaque_u32
#include <ctm/common/setmaxnreg.hpp>  // setmaxnreg_inc/dec

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// setmaxnreg.inc to RegCount registers per thread (a multiple of 8 in 24..256).
template <int RegCount>
__device__ __forceinline__ void setmaxregister_increase() { ctm::setmaxnreg_inc<RegCount>(); }
/// setmaxnreg.dec to RegCount registers per thread.
template <int RegCount>
__device__ __forceinline__ void setmaxregister_decrease() { ctm::setmaxnreg_dec<RegCount>(); }
/// The same under CuTeDSL's warpgroup names.
template <int RegCount>
__device__ __forceinline__ void warpgroup_reg_alloc() { ctm::setmaxnreg_inc<RegCount>(); }
template <int RegCount>
__device__ __forceinline__ void warpgroup_reg_dealloc() { ctm::setmaxnreg_dec<RegCount>(); }

/// v, opaque to the compiler from here: what is derived from it is recomputed after this point
/// instead of being kept in registers from before (for values a long loop would otherwise spill).
__device__ __forceinline__ std::uint32_t recompute_from_here(std::uint32_t v) { return ctm::opaque_u32(v); }

}  // namespace cute_cpp::arch
#endif
