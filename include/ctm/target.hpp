// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The target gate for every cute-cpp header: a device pass for anything other than sm_90a,
// sm_100a or sm_120a is a compile error that names the target. Also the constexpr view of the
// current device pass (ctm::current_target) and always_false for per-instruction gates.

namespace ctm {

/// The targets cute-cpp builds for; `host` is the host pass.
enum class Target { host, sm90a, sm100a, sm120a };

namespace detail {
template <class...> inline constexpr bool always_false = false;
}  // namespace detail

#if defined(__CUDA_ARCH__)
#  if defined(__CUDA_ARCH_FEAT_SM90_ALL)
inline constexpr Target current_target = Target::sm90a;
#  elif defined(__CUDA_ARCH_FEAT_SM100_ALL)
inline constexpr Target current_target = Target::sm100a;
#  elif defined(__CUDA_ARCH_FEAT_SM120_ALL)
inline constexpr Target current_target = Target::sm120a;
#  else
// NOTE: nvcc prints only a string literal, so each rejected target has its own message.
#    if __CUDA_ARCH__ == 900
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_90 (a plain compute_90 pass, which -arch=sm_90a adds: build with --generate-code=arch=compute_90a,code=sm_90a); cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 1000
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_100 (without the a suffix: build with --generate-code=arch=compute_100a,code=sm_100a); cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 1200
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_120 (without the a suffix: build with --generate-code=arch=compute_120a,code=sm_120a); cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 750
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_75; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 800
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_80; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 860
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_86; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 870
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_87; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 880
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_88; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 890
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_89; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 1010
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_101; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 1030
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_103; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 1100
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_110; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    elif __CUDA_ARCH__ == 1210
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets sm_121; cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    else
static_assert(false, "cute-cpp [target.unsupported]: this device pass targets an unlisted architecture (see __CUDA_ARCH__); cute-cpp supports sm_90a, sm_100a and sm_120a only");
#    endif
#  endif
#else
inline constexpr Target current_target = Target::host;
#endif

}  // namespace ctm
