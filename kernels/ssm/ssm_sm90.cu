// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// cute_cpp::ssm's instantiations for sm_90a: Nemotron-3 Nano's Mamba-2 shapes in bf16.
#include <cute_cpp/kernels/ssm/ssm.cuh>

namespace cute_cpp::kernels {

template void run_causal_conv1d_prefill<NemotronConvPlan, __nv_bfloat16>(ConvPrefillArguments<__nv_bfloat16> const&,
                                                                          cudaStream_t);
template void run_causal_conv1d_update<NemotronConvPlan, __nv_bfloat16>(ConvUpdateArguments<__nv_bfloat16> const&,
                                                                         cudaStream_t);
template void run_ssd_prefill<NemotronSsdPlan, __nv_bfloat16>(SsdPrefillArguments<__nv_bfloat16> const&, cudaStream_t);
template void run_ssd_prefill<NemotronSsdPlanTensorCores, __nv_bfloat16>(SsdPrefillArguments<__nv_bfloat16> const&,
                                                                         cudaStream_t);
template void run_selective_state_update<NemotronSsdPlan, __nv_bfloat16>(StateUpdateArguments<__nv_bfloat16> const&,
                                                                          cudaStream_t);
template void run_gated_rmsnorm<__nv_bfloat16>(GatedRmsNormArguments<__nv_bfloat16> const&, cudaStream_t);

}  // namespace cute_cpp::kernels
