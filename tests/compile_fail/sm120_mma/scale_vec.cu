// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// A UE4M3 factor covers 16 elements (scale_vec::4X); 32 is UE8M0's block.
// cute-cpp-arch: 120a
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
// expected-error {{"mma\.sm120\.scale-vec.*\n.*with Scale=cute_cpp::diag::Sm120ScaleType::ue4m3, SFVecSize=32"}}
namespace cc = cute_cpp;
static_assert(cc::warp::MmaMXF4NVF4Op<cc::quant::ue4m3, 32>::k == 64);
