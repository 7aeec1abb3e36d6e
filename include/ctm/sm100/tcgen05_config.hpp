// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// ctm/sm100/tcgen05_config.hpp: what every sm_100a tcgen05 wrapper shares: the attribute
// macro, the cta_group rule, the tensor-memory column count type and the per-instruction
// target gates (one per PTX instruction, so the error names it).
// NOTE: ptxas 13.0 rejects a kernel whose tcgen05 instructions mix cta_group::1 and ::2
// ("uses single CTA(.cta_group::1) and CTA pair granularity(.cta_group::2)"): pick one per kernel.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE
#include <ctm/target.hpp>         // detail::always_false, the device-pass gate

namespace ctm {

/// A static tensor-memory column count, checked where it is formed:
///   Tcgen05Cols<128>{}  ok;  Tcgen05Cols<48>{}  compile error [tcgen05.alloc.columns]
template <std::uint32_t N>
struct Tcgen05Cols {
  static_assert(N >= 32 && N <= 512 && (N & (N - 1)) == 0,
                "ctm [tcgen05.alloc.columns]: the tensor-memory column count must be a power of "
                "two from 32 to 512");
  static constexpr std::uint32_t value = N;
};

namespace diag {
/// Rule tcgen05.cta-group: tcgen05 instructions run on one CTA or a CTA pair.
template <int CtaGroup>
struct tcgen05_cta_group {
  static_assert(CtaGroup == 1 || CtaGroup == 2,
                "ctm [tcgen05.cta-group]: cta_group must be 1 or 2");
  static constexpr bool ok = true;
};
}  // namespace diag

#if defined(__CUDACC__)
namespace detail {
// NOTE: one gate per instruction because nvcc prints only a literal static_assert message.
template <class Target>
CTM_DEVICE void gate_tcgen05_alloc() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: tcgen05.alloc, tcgen05.dealloc and tcgen05.relinquish_alloc_permit "
      "exist only on sm_100a; build this translation unit for 100a only (CUDA_ARCHITECTURES 100a)");
#  endif
}
template <class Target>
CTM_DEVICE void gate_tcgen05_mma() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: tcgen05.mma exists only on sm_100a; build this translation unit "
      "for 100a only (CUDA_ARCHITECTURES 100a)");
#  endif
}
template <class Target>
CTM_DEVICE void gate_tcgen05_commit() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: tcgen05.commit exists only on sm_100a; build this translation "
      "unit for 100a only (CUDA_ARCHITECTURES 100a)");
#  endif
}
template <class Target>
CTM_DEVICE void gate_tcgen05_ld() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: tcgen05.ld exists only on sm_100a; build this translation unit "
      "for 100a only (CUDA_ARCHITECTURES 100a)");
#  endif
}
template <class Target>
CTM_DEVICE void gate_tcgen05_st() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: tcgen05.st exists only on sm_100a; build this translation unit "
      "for 100a only (CUDA_ARCHITECTURES 100a)");
#  endif
}
template <class Target>
CTM_DEVICE void gate_tcgen05_wait() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: tcgen05.wait exists only on sm_100a; build this translation "
      "unit for 100a only (CUDA_ARCHITECTURES 100a)");
#  endif
}
template <class Target>
CTM_DEVICE void gate_tcgen05_fence() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: tcgen05.fence exists only on sm_100a; build this translation "
      "unit for 100a only (CUDA_ARCHITECTURES 100a)");
#  endif
}
template <class Target>
CTM_DEVICE void gate_tcgen05_cp() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: tcgen05.cp exists only on sm_100a; build this translation unit "
      "for 100a only (CUDA_ARCHITECTURES 100a)");
#  endif
}
template <class Target>
CTM_DEVICE void gate_tcgen05_shift() {
#  if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
  static_assert(always_false<Target>,
      "ctm [target.sm100a-only]: tcgen05.shift exists only on sm_100a; build this translation "
      "unit for 100a only (CUDA_ARCHITECTURES 100a)");
#  endif
}
}  // namespace detail
#endif  // __CUDACC__

}  // namespace ctm
