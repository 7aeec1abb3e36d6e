// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry points to the convolution family (libcute_cpp_conv.so and its generated header
// cute_cpp_conv.h, made by cute_cpp_export): the built bf16 plans of Qwen3-TTS's speech decoder,
// channels-last activations (batch, time, channels), weights packed once from PyTorch's layouts.
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/conv/conv.cuh>

#include <cute_cpp/host/error.hpp>  // argument_error

#include <cuda_bf16.h>

#include <string>

namespace {

namespace kn = cute_cpp::kernels;
using bf16 = __nv_bfloat16;

/// The epilogue from a C call: activation 0 none, 1 GELU (erf), 2 SnakeBeta (alpha_log and
/// beta_log, f32 a channel) [conv.activation].
kn::ConvEpilogueArguments epilogue_of(float const* bias, int activation, float const* alpha_log,
                                      float const* beta_log) {
  if (activation < 0 || activation > 2)
    cute_cpp::host::argument_error("conv.activation", "activation is 0 (none), 1 (GELU) or 2 (SnakeBeta); got " +
                                                          std::to_string(activation));
  return {bias, static_cast<kn::ConvActivation>(activation), alpha_log, beta_log};
}

}  // namespace

extern "C" {

/// A Conv1d weight (c_out, c_in, kernel_size), PyTorch's, packed into cute_cpp_causal_conv1d's
/// (c_out, kernel_size c_in) operand; bf16 device memory. Returns 0, or 1 with the error in `message`.
int cute_cpp_conv1d_pack_weight(void const* weight, void* packed, int c_out, int c_in, int kernel_size, void* stream,
                                char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    kn::run_conv_pack_weight(static_cast<bf16 const*>(weight), static_cast<bf16*>(packed), c_out, c_in, kernel_size,
                             static_cast<cudaStream_t>(stream));
  });
}

/// A ConvTranspose1d weight (c_in, c_out, kernel_size), PyTorch's, packed into
/// cute_cpp_causal_conv_transpose1d's (stride c_out, kernel_size / stride c_in) operand, for the
/// built (stride, kernel_size): (2, 2), (8, 16), (5, 10), (4, 8), (3, 6) [conv.plan]. Returns 0, or
/// 1 with the error in `message`.
int cute_cpp_conv_transpose1d_pack_weight(void const* weight, void* packed, int c_in, int c_out, int stride,
                                          int kernel_size, void* stream, char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    kn::with_conv_transpose_plan(stride, kernel_size, [&]<class Plan>() {
      kn::run_conv_transpose_pack_weight<Plan>(static_cast<bf16 const*>(weight), static_cast<bf16*>(packed), c_in,
                                               c_out, static_cast<cudaStream_t>(stream));
    });
  });
}

/// Causal conv1d: out (batch, length, c_out) = epilogue(conv(x)) for x (batch, length, c_in) and the
/// packed weight, dilation `dilation`; the epilogue adds bias (c_out f32, or null), applies the
/// activation (0 none, 1 GELU, 2 SnakeBeta with alpha_log and beta_log), then adds residual (out's
/// shape, or null). Left context (streaming): state_in (batch, (kernel_size - 1) dilation, c_in),
/// the previous chunk's last inputs (null: zeros); state_out (may be state_in) gets this chunk's
/// (null: not written). bf16 unless named. Returns 0, or 1 with the error in `message`.
int cute_cpp_causal_conv1d(void const* x, void const* weight, void* out, void const* residual, void const* state_in,
                           void* state_out, float const* bias, int activation, float const* alpha_log,
                           float const* beta_log, int batch, int length, int c_in, int c_out, int kernel_size,
                           int dilation, void* stream, char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    kn::CausalConv1dArguments<bf16> a;
    a.x = static_cast<bf16 const*>(x), a.weight = static_cast<bf16 const*>(weight), a.out = static_cast<bf16*>(out);
    a.residual = static_cast<bf16 const*>(residual);
    a.state_in = static_cast<bf16 const*>(state_in), a.state_out = static_cast<bf16*>(state_out);
    a.epilogue = epilogue_of(bias, activation, alpha_log, beta_log);
    a.batch = batch, a.length = length, a.c_in = c_in, a.c_out = c_out, a.kernel_size = kernel_size;
    a.dilation = dilation;
    kn::run_causal_conv1d_auto(a, static_cast<cudaStream_t>(stream));
  });
}

/// Causal ConvTranspose1d of stride `stride` and kernel_size (the right kernel_size - stride samples
/// trimmed, as Qwen3-TTS's decoder): out (batch, length stride, c_out) from x (batch, length, c_in)
/// and the packed weight, the epilogue and states as cute_cpp_causal_conv1d's (states (batch,
/// kernel_size / stride - 1, c_in)). Returns 0, or 1 with the error in `message`.
int cute_cpp_causal_conv_transpose1d(void const* x, void const* weight, void* out, void const* residual,
                                     void const* state_in, void* state_out, float const* bias, int activation,
                                     float const* alpha_log, float const* beta_log, int batch, int length, int c_in,
                                     int c_out, int stride, int kernel_size, void* stream, char* message,
                                     unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    kn::ConvTranspose1dArguments<bf16> a;
    a.x = static_cast<bf16 const*>(x), a.weight = static_cast<bf16 const*>(weight), a.out = static_cast<bf16*>(out);
    a.residual = static_cast<bf16 const*>(residual);
    a.state_in = static_cast<bf16 const*>(state_in), a.state_out = static_cast<bf16*>(state_out);
    a.epilogue = epilogue_of(bias, activation, alpha_log, beta_log);
    a.batch = batch, a.length = length, a.c_in = c_in, a.c_out = c_out;
    kn::with_conv_transpose_plan(stride, kernel_size, [&]<class Plan>() {
      kn::run_causal_conv_transpose1d<Plan>(a, static_cast<cudaStream_t>(stream));
    });
  });
}

/// Depthwise causal conv1d (ConvNeXt's, kernel_size 7 built [conv.plan]): out (batch, length,
/// channels) = bias + the conv of x per channel, weight (channels, kernel_size) (PyTorch's (C, 1, K)),
/// bias f32 or null, states (batch, kernel_size - 1, channels) as cute_cpp_causal_conv1d's.
/// Returns 0, or 1 with the error in `message`.
int cute_cpp_depthwise_conv1d(void const* x, void const* weight, float const* bias, void* out, void const* state_in,
                              void* state_out, int batch, int length, int channels, int kernel_size, void* stream,
                              char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    if (kernel_size != kn::ConvNextDepthwisePlan::kernel)
      cute_cpp::host::argument_error("conv.plan", "the built depthwise plan has kernel size " +
                                                      std::to_string(kn::ConvNextDepthwisePlan::kernel) + " (got " +
                                                      std::to_string(kernel_size) + ")");
    kn::DepthwiseConv1dArguments<bf16> a;
    a.x = static_cast<bf16 const*>(x), a.weight = static_cast<bf16 const*>(weight), a.bias = bias;
    a.out = static_cast<bf16*>(out);
    a.state_in = static_cast<bf16 const*>(state_in), a.state_out = static_cast<bf16*>(state_out);
    a.batch = batch, a.length = length, a.channels = channels;
    kn::run_depthwise_conv1d<kn::ConvNextDepthwisePlan>(a, static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
