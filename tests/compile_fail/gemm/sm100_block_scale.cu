// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// An NVFP4 plan on a CTA pair: the scale factors' tcgen05.cp serves one CTA, so a block-scaled
// plan is rejected at cta_group 2 before any layout rule.
// cute-cpp-arch: 100a
// expected-error {{"gemm\.sm100\.block-scale.*BlockScaled=true, CtaGroup=2, AtomsN=1"}}
#include <cute_cpp/kernels/gemm/plans_fp4_sm100.hpp>
namespace kn = cute_cpp::kernels;
namespace p = kn::plans::sm100;
using Bad = kn::GemmSm100Plan<p::fp4x2, p::fp4x2, __nv_bfloat16,
                              kn::GemmSm100Config{.block_m = 256, .block_n = 256, .block_k = 128, .cta_group = 2,
                                                  .stages = 4},
                              cute_cpp::epilogue::Dequantize<>, p::Nvfp4Scale>;
static_assert(Bad::threads > 0);
