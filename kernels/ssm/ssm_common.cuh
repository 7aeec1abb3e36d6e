// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Device helpers the state-space kernels share: element conversions (bf16, f16, f32 to and from
// f32), SiLU, the state slot of a sequence or batch row, and the host's pointer and stream check.
#include <cute_cpp/kernels/ssm/ssm_plan.hpp>  // SsdPlan, ConvPlan, locate_tile, softplus_dt

#include <cute_cpp/arch/griddepcontrol.hpp>  // griddepcontrol_*
#include <cute_cpp/host/arguments.hpp>       // check_device_pointers, check_stream, PointerArgument

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <span>

namespace cute_cpp::kernels::ssm_detail {

/// v as f32.
template <class T>
__device__ __forceinline__ float to_f32(T v) {
  return static_cast<float>(v);
}

/// v rounded to T (round to nearest even).
template <class T>
__device__ __forceinline__ T from_f32(float v) {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(v);
  else if constexpr (std::is_same_v<T, __half>) return __float2half_rn(v);
  else return v;
}

/// silu(v) = v * sigmoid(v), in f32 (expf, not the approximate exponential: the references are
/// in double and the tolerance is bf16's).
__device__ __forceinline__ float silu(float v) { return v / (1.0f + expf(-v)); }

/// Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now; this
/// one waits for its predecessor's memory before it reads or writes global memory (the contract of
/// host/graph_pdl.hpp, which a decode graph's kernel edges may be made under: Nemotron-H's).
__device__ __forceinline__ void pdl_prologue() {
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
}

/// The state slot of sequence (or batch row) i: slots[i], or i when there is no slot table.
__device__ __forceinline__ int state_slot(int const* slots, int i) { return slots != nullptr ? slots[i] : i; }

/// The host's pointer and stream checks for one entry point (rule ids ssm.pointers, ssm.stream).
inline void check_ssm_pointers(std::span<host::PointerArgument const> pointers, cudaStream_t stream) {
  host::check_device_pointers("ssm", pointers, stream);
  host::check_stream("ssm", stream);
}

}  // namespace cute_cpp::kernels::ssm_detail
