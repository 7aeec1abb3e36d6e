// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// kind::mxf4nvf4 reads UE8M0 or UE4M3 factors; packed E2M1 bytes are not a scale type.
// cute-cpp-arch: 120a
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
// expected-error {{"mma\.sm120\.scale-type.*\n.*with Kind=cute_cpp::diag::Sm120MmaKind::mxf4nvf4, Scale=cute_cpp::diag::Sm120ScaleType::other"}}
namespace cc = cute_cpp;
static_assert(cc::warp::MmaMXF4NVF4Op<cc::quant::e2m1x2>::k == 64);
