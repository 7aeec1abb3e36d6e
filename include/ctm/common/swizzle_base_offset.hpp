// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The base-offset field that the sm_90 wgmma and sm_100 tcgen05 shared-memory matrix descriptors
// share: the row of its 8-row swizzle pattern on which a matrix starts.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_HD

namespace ctm {

/// 0 when `start` lies on the swizzle's repeat (`repeat_bytes`: 8 rows of the swizzle width;
/// 0 for no swizzle), otherwise (start >> 7) & 7, as the PTX ISA gives it.
///   swizzle_base_offset(0x480, 1024) -> 1;  swizzle_base_offset(0x400, 1024) -> 0
CTM_HD constexpr std::uint32_t swizzle_base_offset(std::uint32_t start, std::uint32_t repeat_bytes) {
  return repeat_bytes == 0 || start % repeat_bytes == 0 ? 0u : (start >> 7) & 7u;
}

}  // namespace ctm
