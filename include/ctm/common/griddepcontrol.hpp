// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// griddepcontrol: programmatic dependent launch (PDL). CuTeDSL: cute.arch.griddepcontrol_wait,
// griddepcontrol_launch_dependents. Targets: sm_90a, sm_100a, sm_120a.
#include <ctm/common/config.hpp>  // CTM_DEVICE

#if defined(__CUDACC__)
namespace ctm {

/// griddepcontrol.wait: waits until the prerequisite grids have completed and their memory
/// operations are visible (a no-op when the launch had no programmatic dependency).
CTM_DEVICE void griddepcontrol_wait() { asm volatile("griddepcontrol.wait;\n" ::: "memory"); }

/// griddepcontrol.launch_dependents: allows the dependent grid (launched with the PDL
/// attribute) to start once every CTA of this grid has executed it or exited.
CTM_DEVICE void griddepcontrol_launch_dependents() {
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
}

}  // namespace ctm
#endif
