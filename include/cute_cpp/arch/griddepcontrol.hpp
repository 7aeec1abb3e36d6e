// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Programmatic dependent launch from inside a kernel: wait for the grid this one depends on, or
// let the grid that depends on this one start. CuTeDSL: cute.arch.griddepcontrol_wait /
// griddepcontrol_launch_dependents.
#include <ctm/common/griddepcontrol.hpp>  // griddepcontrol_*

#if defined(__CUDACC__)
namespace cute_cpp::arch {

/// griddepcontrol.wait (PDL: wait for the prerequisite grid's memory).
__device__ __forceinline__ void griddepcontrol_wait() { ctm::griddepcontrol_wait(); }
/// griddepcontrol.launch_dependents (PDL: let the dependent grid start).
__device__ __forceinline__ void griddepcontrol_launch_dependents() { ctm::griddepcontrol_launch_dependents(); }

}  // namespace cute_cpp::arch
#endif
