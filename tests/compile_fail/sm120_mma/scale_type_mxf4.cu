// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kind::mxf4 reads UE8M0 factors only: NVFP4's UE4M3 factors need MmaMXF4NVF4Op.
// cute-cpp-arch: 120a
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
// expected-error {{"mma\.sm120\.scale-type.*\n.*with Kind=cute_cpp::diag::Sm120MmaKind::mxf4, Scale=cute_cpp::diag::Sm120ScaleType::ue4m3"}}
namespace cc = cute_cpp;
static_assert(cc::warp::MmaMXF4Op<cc::quant::ue4m3>::k == 64);
