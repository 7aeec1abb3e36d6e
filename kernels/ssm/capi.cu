// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry points to the state-space family (libcute_cpp_ssm.so and its generated header
// cute_cpp_ssm.h, made by cute_cpp_export): the built plans, Mamba-2's shapes in bf16 (head dim 64,
// state 128, chunk 128, the scan's products on the CUDA or the tensor cores; conv width 4), for
// callers without C++ (bench/ssm/bench_ssd_triton.py times them against mamba_ssm's Triton kernels
// through ctypes). Tensors are bf16 unless named f32.
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/ssm/ssm.cuh>

#include <cute_cpp/host/error.hpp>  // argument_error

#include <cuda_bf16.h>

#include <string>

namespace {

namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;
using Ssd = kn::NemotronSsdPlan;
using Conv = kn::NemotronConvPlan;

/// Rule ssm.plan: the scan's head dim and state size, and the conv's width, are those built.
void check_built_ssd(int head_dim, int state, char const* entry) {
  if (head_dim != Ssd::head_dim || state != Ssd::state)
    cute_cpp::host::argument_error("ssm.plan", "the built SSD plan has head dim " + std::to_string(Ssd::head_dim) +
                                                   " and state " + std::to_string(Ssd::state) + " (got " +
                                                   std::to_string(head_dim) + " and " + std::to_string(state) +
                                                   "): instantiate " + entry + " for others from C++");
}
void check_built_conv(int width) {
  if (width != Conv::width)
    cute_cpp::host::argument_error("ssm.plan", "the built conv plan has width " + std::to_string(Conv::width) +
                                                   " (got " + std::to_string(width) +
                                                   "): instantiate run_causal_conv1d_* for others from C++");
}

/// The scan's C entry on plan P (the CUDA-core or the tensor-core products).
template <class P>
int ssd_prefill(void const* x, long long x_stride, void const* dt, long long dt_stride, void const* b, void const* c,
                long long bc_stride, float const* dt_bias, float const* a_log, float const* d, void* y, int heads,
                int groups, int head_dim, int state, int total_tokens, int num_seqs, int const* cu_seqlens,
                float const* initial_states, float* final_states, int const* state_slots, float dt_lo, float dt_hi,
                void* workspace, unsigned long long workspace_bytes, void* stream, char* message,
                unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    check_built_ssd(head_dim, state, "run_ssd_prefill");
    kn::SsdPrefillArguments<bf16> a;
    a.x = static_cast<bf16 const*>(x), a.x_stride = x_stride;
    a.dt = static_cast<bf16 const*>(dt), a.dt_stride = dt_stride;
    a.B = static_cast<bf16 const*>(b), a.C = static_cast<bf16 const*>(c), a.bc_stride = bc_stride;
    a.dt_bias = dt_bias, a.A_log = a_log, a.D = d;
    a.y = static_cast<bf16*>(y);
    a.heads = heads, a.groups = groups, a.total_tokens = total_tokens, a.num_seqs = num_seqs;
    a.cu_seqlens = cu_seqlens;
    a.initial_states = initial_states, a.final_states = final_states, a.state_slots = state_slots;
    a.dt_lo = dt_lo, a.dt_hi = dt_hi;
    a.workspace = workspace, a.workspace_bytes = std::size_t(workspace_bytes);
    kn::run_ssd_prefill<P>(a, static_cast<cudaStream_t>(stream));
  });
}

}  // namespace

extern "C" {

/// The workspace bytes cute_cpp_ssd_prefill needs for total_tokens tokens in num_seqs sequences of
/// heads heads in groups groups, into *bytes. Returns 0, or 1 with the error in `message`.
int cute_cpp_ssd_workspace_bytes(long long total_tokens, int num_seqs, int heads, int groups, int head_dim, int state,
                                 unsigned long long* bytes, char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    check_built_ssd(head_dim, state, "run_ssd_prefill");
    kn::check_ssm_heads(heads, groups);
    kn::check_ssm_count("total_tokens", total_tokens, 0);
    kn::check_ssm_count("num_seqs", num_seqs, 1);
    if (bytes == nullptr) cute_cpp::host::argument_error("ssm.pointers", "bytes is null");
    *bytes = kn::ssd_workspace<Ssd>(total_tokens, num_seqs, heads, groups).bytes;
  });
}

/// The Mamba-2 SSD chunked scan over a varlen batch (mamba_chunk_scan_combined with dt_softplus,
/// dt_bias, D and the final states): x (T, H, P), dt (T, H), B and C (T, G, N), each row at its
/// stride in elements; dt_bias, A_log, D (H) f32; y (T, H, P) dense. cu_seqlens: num_seqs + 1 device
/// offsets. SSM states (slots, H, P, N) f32: initial_states (null: zeros) and final_states (may be
/// the same), sequence s in slot state_slots[s] (device, or null: slot s). dt is clamped to
/// [dt_lo, dt_hi] after the softplus. workspace: cute_cpp_ssd_workspace_bytes of it, 256-byte
/// aligned. stream: a cudaStream_t. Returns 0, or 1 with the error (naming the rule) in `message`.
int cute_cpp_ssd_prefill(void const* x, long long x_stride, void const* dt, long long dt_stride, void const* b,
                         void const* c, long long bc_stride, float const* dt_bias, float const* a_log, float const* d,
                         void* y, int heads, int groups, int head_dim, int state, int total_tokens, int num_seqs,
                         int const* cu_seqlens, float const* initial_states, float* final_states,
                         int const* state_slots, float dt_lo, float dt_hi, void* workspace,
                         unsigned long long workspace_bytes, void* stream, char* message,
                         unsigned long message_size) {
  return ssd_prefill<Ssd>(x, x_stride, dt, dt_stride, b, c, bc_stride, dt_bias, a_log, d, y, heads, groups, head_dim,
                          state, total_tokens, num_seqs, cu_seqlens, initial_states, final_states, state_slots, dt_lo,
                          dt_hi, workspace, workspace_bytes, stream, message, message_size);
}

/// cute_cpp_ssd_prefill with the chunk products on the tensor cores (3xTF32 mma.sync; the same
/// arguments, workspace and results).
int cute_cpp_ssd_prefill_tensor_cores(void const* x, long long x_stride, void const* dt, long long dt_stride,
                                      void const* b, void const* c, long long bc_stride, float const* dt_bias,
                                      float const* a_log, float const* d, void* y, int heads, int groups,
                                      int head_dim, int state, int total_tokens, int num_seqs,
                                      int const* cu_seqlens, float const* initial_states, float* final_states,
                                      int const* state_slots, float dt_lo, float dt_hi, void* workspace,
                                      unsigned long long workspace_bytes, void* stream, char* message,
                                      unsigned long message_size) {
  return ssd_prefill<kn::NemotronSsdPlanTensorCores>(x, x_stride, dt, dt_stride, b, c, bc_stride, dt_bias, a_log, d,
                                                     y, heads, groups, head_dim, state, total_tokens, num_seqs,
                                                     cu_seqlens, initial_states, final_states, state_slots, dt_lo,
                                                     dt_hi, workspace, workspace_bytes, stream, message, message_size);
}

/// One decode step of the scan (mamba_ssm's selective_state_update with dt_softplus, dt_bias and D):
/// x (batch, H, P), dt (batch, H), B and C (batch, G, N) at their strides; states (slots, H, P, N)
/// f32 updated in place, row r in slot state_slots[r] (device, or null: slot r; negative: padding,
/// skipped); y (batch, H, P) dense. Returns 0, or 1 with the error in `message`.
int cute_cpp_ssm_state_update(void const* x, long long x_stride, void const* dt, long long dt_stride, void const* b,
                              void const* c, long long bc_stride, float const* dt_bias, float const* a_log,
                              float const* d, float* states, int const* state_slots, void* y, int heads, int groups,
                              int head_dim, int state, int batch, float dt_lo, float dt_hi, void* stream,
                              char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    check_built_ssd(head_dim, state, "run_selective_state_update");
    kn::StateUpdateArguments<bf16> a;
    a.x = static_cast<bf16 const*>(x), a.x_stride = x_stride;
    a.dt = static_cast<bf16 const*>(dt), a.dt_stride = dt_stride;
    a.B = static_cast<bf16 const*>(b), a.C = static_cast<bf16 const*>(c), a.bc_stride = bc_stride;
    a.dt_bias = dt_bias, a.A_log = a_log, a.D = d;
    a.states = states, a.state_slots = state_slots, a.y = static_cast<bf16*>(y);
    a.heads = heads, a.groups = groups, a.batch = batch, a.dt_lo = dt_lo, a.dt_hi = dt_hi;
    kn::run_selective_state_update<Ssd>(a, static_cast<cudaStream_t>(stream));
  });
}

/// Causal depthwise conv1d with SiLU over a varlen batch (causal_conv1d_fn): x (T, channels) at
/// row stride x_stride, weight (channels, width), bias (channels) or null, y (T, channels) dense;
/// conv states (slots, width - 1, channels), the oldest input first: initial_states (null: zeros)
/// and final_states (may be the same), sequence s in slot state_slots[s] (device, or null: slot s).
/// Returns 0, or 1 with the error in `message`.
int cute_cpp_causal_conv1d_prefill(void const* x, long long x_stride, void const* weight, void const* bias, void* y,
                                   int channels, int width, int total_tokens, int num_seqs, int const* cu_seqlens,
                                   void const* initial_states, void* final_states, int const* state_slots,
                                   void* stream, char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    check_built_conv(width);
    kn::ConvPrefillArguments<bf16> a;
    a.x = static_cast<bf16 const*>(x), a.x_stride = x_stride;
    a.weight = static_cast<bf16 const*>(weight), a.bias = static_cast<bf16 const*>(bias);
    a.y = static_cast<bf16*>(y);
    a.channels = channels, a.total_tokens = total_tokens, a.num_seqs = num_seqs, a.cu_seqlens = cu_seqlens;
    a.initial_states = static_cast<bf16 const*>(initial_states), a.final_states = static_cast<bf16*>(final_states);
    a.state_slots = state_slots;
    kn::run_causal_conv1d_prefill<Conv>(a, static_cast<cudaStream_t>(stream));
  });
}

/// One decode step of the conv (causal_conv1d_update): x (batch, channels) at row stride x_stride,
/// y (batch, channels) dense, states (slots, width - 1, channels) updated in place, row r in slot
/// state_slots[r] (device, or null: slot r; negative: padding). Returns 0, or 1 with the error.
int cute_cpp_causal_conv1d_update(void const* x, long long x_stride, void const* weight, void const* bias, void* y,
                                  void* states, int const* state_slots, int channels, int width, int batch,
                                  void* stream, char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    check_built_conv(width);
    kn::ConvUpdateArguments<bf16> a;
    a.x = static_cast<bf16 const*>(x), a.x_stride = x_stride;
    a.weight = static_cast<bf16 const*>(weight), a.bias = static_cast<bf16 const*>(bias);
    a.y = static_cast<bf16*>(y), a.states = static_cast<bf16*>(states), a.state_slots = state_slots;
    a.channels = channels, a.batch = batch;
    kn::run_causal_conv1d_update<Conv>(a, static_cast<cudaStream_t>(stream));
  });
}

/// out = rmsnorm(y * silu(z)) * weight in `groups` groups of each row's `width` channels
/// (Mamba-2's gated RMSNorm): y and z (tokens, width) at their row strides, weight (width), out
/// (tokens, width) dense. Returns 0, or 1 with the error in `message`.
int cute_cpp_gated_rmsnorm(void const* y, long long y_stride, void const* z, long long z_stride, void const* weight,
                           void* out, int tokens, int width, int groups, float eps, void* stream, char* message,
                           unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    kn::GatedRmsNormArguments<bf16> a;
    a.y = static_cast<bf16 const*>(y), a.y_stride = y_stride;
    a.z = static_cast<bf16 const*>(z), a.z_stride = z_stride;
    a.weight = static_cast<bf16 const*>(weight), a.out = static_cast<bf16*>(out);
    a.tokens = tokens, a.width = width, a.groups = groups, a.eps = eps;
    kn::run_gated_rmsnorm<bf16>(a, static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
