// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The state-space (Mamba-2) kernel family: causal conv1d (prefill and decode), the SSD chunked
// scan (prefill), the selective state update (decode) and the grouped gated RMSNorm. The entry
// points for Nemotron-3 Nano's shapes (NemotronSsdPlan, NemotronConvPlan) in bf16 are compiled
// once into cute_cpp::ssm (ssm_sm90.cu, sm_90a); other plans instantiate from these headers.
#include <cute_cpp/kernels/ssm/conv1d.cuh>         // run_causal_conv1d_prefill, run_causal_conv1d_update
#include <cute_cpp/kernels/ssm/gated_rmsnorm.cuh>  // run_gated_rmsnorm
#include <cute_cpp/kernels/ssm/ssd_prefill.cuh>    // run_ssd_prefill
#include <cute_cpp/kernels/ssm/state_update.cuh>   // run_selective_state_update

#include <cuda_bf16.h>

namespace cute_cpp::kernels {

extern template void run_causal_conv1d_prefill<NemotronConvPlan, __nv_bfloat16>(
    ConvPrefillArguments<__nv_bfloat16> const&, cudaStream_t);
extern template void run_causal_conv1d_update<NemotronConvPlan, __nv_bfloat16>(
    ConvUpdateArguments<__nv_bfloat16> const&, cudaStream_t);
extern template void run_ssd_prefill<NemotronSsdPlan, __nv_bfloat16>(SsdPrefillArguments<__nv_bfloat16> const&,
                                                                     cudaStream_t);
extern template void run_ssd_prefill<NemotronSsdPlanTensorCores, __nv_bfloat16>(
    SsdPrefillArguments<__nv_bfloat16> const&, cudaStream_t);
extern template void run_selective_state_update<NemotronSsdPlan, __nv_bfloat16>(
    StateUpdateArguments<__nv_bfloat16> const&, cudaStream_t);
extern template void run_gated_rmsnorm<__nv_bfloat16>(GatedRmsNormArguments<__nv_bfloat16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
