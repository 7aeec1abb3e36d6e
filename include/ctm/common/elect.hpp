// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// elect.sync: one leader lane among the active lanes of a mask. CuTeDSL: cute.arch.elect_one.
// Targets: sm_90a, sm_100a, sm_120a.
#include <cstdint>
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

/// elect.sync _|p, membermask: true in exactly one lane of `membermask` (the same lane for
/// every lane that executes it). All lanes of `membermask` must execute it.
CTM_DEVICE bool elect_sync(std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t elected;
  asm volatile(
      "{\n.reg .pred p;\n"
      "elect.sync _|p, %1;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(elected)
      : "r"(membermask));
  return elected != 0;
}

/// elect.sync lane|p, membermask: the lane id of the elected leader, in every lane.
CTM_DEVICE std::uint32_t elect_sync_lane(std::uint32_t membermask = 0xffffffffu) {
  std::uint32_t lane;
  asm volatile("{\n.reg .pred p;\nelect.sync %0|p, %1;\n}\n" : "=r"(lane) : "r"(membermask));
  return lane;
}

}  // namespace ctm
#endif
