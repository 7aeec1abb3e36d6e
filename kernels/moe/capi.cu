// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The C entry points to the MoE block (libcute_cpp_moe.so and its generated header cute_cpp_moe.h,
// made by cute_cpp_export): moe_layer (kernels/moe/moe.cuh) on bf16 activations and weights, and the
// packing of separate gate and up weights into the interleaved gate-up layout its SwiGLU experts read.
#include <cute_cpp/kernels/common/capi.hpp>
#include <cute_cpp/kernels/gemm/ffn.cuh>  // pack_gate_up
#include <cute_cpp/kernels/moe/moe.cuh>

#include <cute_cpp/host/error.hpp>  // argument_error

#include <cuda_bf16.h>

#include <cstddef>
#include <string>

namespace {

namespace kn = cute_cpp::kernels;
namespace moe = cute_cpp::kernels::moe;
using bf16 = __nv_bfloat16;

/// The block's shape from a C call's sizes and codes (rule moe.routing for a code out of range).
moe::MoeShape shape_of(long long tokens, long long hidden, long long ffn, int experts, int top_k, int renormalize,
                       int routing, int activation, float routed_scaling, int groups, int top_groups,
                       long long shared_ffn) {
  if (routing < 0 || routing > 1 || activation < 0 || activation > 1)
    cute_cpp::host::argument_error("moe.routing", "routing is 0 (softmax) or 1 (sigmoid) and activation 0 (SwiGLU) "
                                                  "or 1 (squared ReLU); got " + std::to_string(routing) + " and " +
                                                      std::to_string(activation));
  moe::MoeShape s;
  s.tokens = tokens, s.hidden = hidden, s.ffn = ffn, s.experts = experts, s.top_k = top_k;
  s.renormalize = renormalize != 0;
  s.routing = routing == 0 ? moe::MoeRouting::softmax : moe::MoeRouting::sigmoid;
  s.activation = activation == 0 ? moe::MoeActivation::swiglu : moe::MoeActivation::relu2;
  s.routed_scaling = routed_scaling, s.groups = groups, s.top_groups = top_groups, s.shared_ffn = shared_ffn;
  return s;
}

}  // namespace

extern "C" {

/// The scratch bytes cute_cpp_moe_layer needs for a block of these sizes and codes (as there), into
/// *bytes. Returns 0, or 1 with the error (naming the rule) in `message`.
int cute_cpp_moe_scratch_bytes(long long tokens, long long hidden, long long ffn, int experts, int top_k,
                               int renormalize, int routing, int activation, float routed_scaling, int groups,
                               int top_groups, long long shared_ffn, unsigned long long* bytes, char* message,
                               unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    if (bytes == nullptr) cute_cpp::host::argument_error("moe.pointers", "bytes is null");
    *bytes = moe::moe_scratch_bytes(shape_of(tokens, hidden, ffn, experts, top_k, renormalize, routing, activation,
                                             routed_scaling, groups, top_groups, shared_ffn));
  });
}

/// y (tokens, hidden) = the MoE block of x (tokens, hidden), bf16 row-major. Each token's top_k of
/// `experts` experts: routing 0, softmax over the router's logits (Qwen3-MoE, Mixtral), the top k
/// renormalized when `renormalize`; routing 1, sigmoid scores with correction_bias ((experts) f32,
/// or null) in `groups` groups of which top_groups are kept, weights times routed_scaling
/// (Nemotron-H, DeepSeek-V3; softmax takes groups = top_groups = 1, a scaling of 1, no shared expert).
/// Experts' FFN of width ffn: activation 0, SwiGLU with gate_up each expert's (2 ffn, hidden), gate
/// and up rows interleaved in blocks of 8 (cute_cpp_pack_gate_up); activation 1, the squared ReLU
/// with up each expert's (ffn, hidden); down each expert's (hidden, ffn); router (experts, hidden).
/// A shared expert of width shared_ffn (0: none; sigmoid routing): shared_up and shared_down as the
/// experts'. scratch: cute_cpp_moe_scratch_bytes of it, zeroed before its first use (the kernels
/// leave it so). stream: a cudaStream_t. Nothing read back to the host: a CUDA graph can hold the call.
/// Returns 0, or 1 with the error (naming the rule) in `message`.
int cute_cpp_moe_layer(void const* x, void* y, long long tokens, long long hidden, long long ffn, int experts,
                       int top_k, int renormalize, int routing, int activation, float routed_scaling, int groups,
                       int top_groups, long long shared_ffn, void const* router, void const* gate_up, void const* up,
                       void const* down, float const* correction_bias, void const* shared_up,
                       void const* shared_down, void* scratch, unsigned long long scratch_bytes, void* stream,
                       char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    moe::MoeShape const s = shape_of(tokens, hidden, ffn, experts, top_k, renormalize, routing, activation,
                                     routed_scaling, groups, top_groups, shared_ffn);
    std::size_t const needed = moe::moe_scratch_bytes(s);
    if (scratch_bytes < needed)
      cute_cpp::host::argument_error("moe.scratch", "the scratch holds " + std::to_string(scratch_bytes) +
                                                        " bytes; this block needs " + std::to_string(needed) +
                                                        " (cute_cpp_moe_scratch_bytes)");
    moe::MoeWeights w;
    w.router = static_cast<bf16 const*>(router), w.gate_up = static_cast<bf16 const*>(gate_up);
    w.up = static_cast<bf16 const*>(up), w.down = static_cast<bf16 const*>(down);
    w.correction_bias = correction_bias;
    w.shared_up = static_cast<bf16 const*>(shared_up), w.shared_down = static_cast<bf16 const*>(shared_down);
    moe::moe_layer(static_cast<bf16 const*>(x), w, s, static_cast<bf16*>(y), scratch,
                   static_cast<cudaStream_t>(stream));
  });
}

/// gate_up (count, 2 ffn, hidden) from `count` stacked gate and up weights (count, ffn, hidden), bf16
/// row-major (nn.Linear's): the layout cute_cpp_moe_layer's SwiGLU experts (and the fused FFN) read,
/// gate and up rows interleaved in blocks of 8. Device-to-device copies on `stream`. Returns 0, or 1
/// with the error (naming the rule) in `message`.
int cute_cpp_pack_gate_up(void const* gate, void const* up, void* gate_up, long long count, long long ffn,
                          long long hidden, void* stream, char* message, unsigned long message_size) {
  return kn::capi_try(message, message_size, [&] {
    if (gate == nullptr || up == nullptr || gate_up == nullptr)
      cute_cpp::host::argument_error("ffn.pointers", "gate, up and gate_up are device pointers");
    if (count < 0 || ffn <= 0 || hidden <= 0 || ffn % 8 != 0 || hidden % 8 != 0)
      cute_cpp::host::argument_error("ffn.shape", "count >= 0 weights of positive ffn and hidden, multiples of 8 "
                                                  "(got " + std::to_string(count) + ", " + std::to_string(ffn) + ", " +
                                                      std::to_string(hidden) + ")");
    auto const* g = static_cast<bf16 const*>(gate);
    auto const* u = static_cast<bf16 const*>(up);
    auto* gu = static_cast<bf16*>(gate_up);
    std::size_t const matrix = std::size_t(ffn) * std::size_t(hidden);
    for (long long e = 0; e < count; ++e)
      kn::pack_gate_up(g + e * matrix, u + e * matrix, gu + 2 * e * matrix, std::size_t(ffn), std::size_t(hidden),
                       static_cast<cudaStream_t>(stream));
  });
}

}  // extern "C"
