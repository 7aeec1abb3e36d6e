// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// models/qwen3/fused_step_sm90.cu: the fused decode step's kernel, top to bottom, and FusedStep
// (fused_step.hpp). A layer is five phases between grid barriers, six where it is a Qwen3-MoE sparse
// layer (fused_step.cuh).
#include "models/qwen3/fused_step.hpp"

#include <cute_cpp/host/launch.hpp>        // launch, LaunchConfig
#include <cute_cpp/host/target_check.hpp>  // multiprocessor_count, shared_memory_per_block_optin

#include <cmath>
#include <span>
#include <stdexcept>

#include <cute_cpp/kernels/moe/moe_route.cuh>  // softmax_route

#include "models/qwen3/fused_step_attention.cuh"

namespace cute_cpp::models {

namespace fused_step {

/// A sparse layer's choices from its router row (every CTA the same): warp 0 takes kernels/moe's
/// route_kernel steps (softmax in f32, the top k with ties to the lower expert, renormalized where
/// asked) into `choice` and `weight`; then thread 0 lets the producer load the chosen experts.
__device__ void route(FusedStepParams const& p, Ring& ring, std::int32_t* choice, float* weight) {
  FusedStepShape const& s = p.shape;
  if (threadIdx.x < 32) {
    int const lane = int(threadIdx.x);
    int id = 0;
    float w = 0.0f;
    kernels::moe::softmax_route([&](int e) { return __bfloat162float(__ldcg(p.router_logits + e)); }, lane, s.experts,
                                s.top_k, s.renormalize, id, w);
    if (lane < s.top_k) choice[lane] = id, weight[lane] = w;
  }
  sync_consumers();
  if (threadIdx.x == 0) arch::mbarrier_arrive(ring.routed);
}

/// A dense layer's MLP (gate-up with SwiGLU, down) on the normed row in act, into delta.
__device__ void dense_mlp(FusedStepParams const& p, Ring& ring, bf16* act, float* row_out,
                          float (&partial)[2][max_chunk_rows]) {
  project<true>(p, ring, Projection::gate_up, act, row_out, partial, p.io.ffn_hidden);
  p.barrier.sync(sync_consumers);
  load_row(p.io.ffn_hidden, p.shape.ffn, act);
  project<false>(p, ring, Projection::down, act, row_out, partial, p.io.delta);
}

/// A sparse layer's MoE block on the normed row in act, into delta: the router, the choices, their
/// gate-up rows with SwiGLU, their down rows summed with the choices' weights.
__device__ void sparse_mlp(FusedStepParams const& p, Ring& ring, bf16* act, float* row_out,
                           float (&partial)[2][max_chunk_rows], std::int32_t* choice, float* weight) {
  project<false>(p, ring, Projection::router, act, row_out, partial, p.router_logits);
  p.barrier.sync(sync_consumers);
  route(p, ring, choice, weight);
  project<true>(p, ring, Projection::expert_gate_up, act, row_out, partial, p.expert_h);
  p.barrier.sync(sync_consumers);
  load_row(p.expert_h, p.shape.top_k * p.shape.expert_ffn, act);
  project<false>(p, ring, Projection::expert_down, act, row_out, partial, p.io.delta, weight);
}

/// The step: the producer warp streams the weights; the consumer warps run every layer's phases
/// (five, six for a sparse layer), then the final RMSNorm where asked (CTA 0).
template <int HeadDim>
__global__ void __launch_bounds__(block_threads, 1) fused_step_kernel(FusedStepParams const p) {
  extern __shared__ __align__(128) unsigned char smem[];
  __shared__ std::uint64_t full[stages], empty[stages], routed;
  __shared__ std::uint64_t kv_full;  // a key block's K and V rows (fused_step_attention.cuh's issue_keys)
  __shared__ float partial[2][max_chunk_rows];
  __shared__ float scratch[warps];
  __shared__ std::int32_t choice[max_top_k];
  __shared__ float choice_weight[max_top_k];
  SmemLayout const layout = smem_layout(p.shape, int(gridDim.x));
  bf16* const act = reinterpret_cast<bf16*>(smem + layout.activation);
  float* const row_out = reinterpret_cast<float*>(smem + layout.row_out);
  unsigned char* const attention = smem + layout.attention;
  Ring ring{smem + layout.ring, full, empty, &routed, choice};
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) arch::mbarrier_init(&full[s], 1), arch::mbarrier_init(&empty[s], 1);
    arch::mbarrier_init(&routed, 1);
    arch::mbarrier_init(&kv_full, 1);
    arch::mbarrier_init_fence();
  }
  __syncthreads();  // the last barrier of all the CTA's threads: from here on the consumers' own
  if (threadIdx.x >= threads) {
    // The weights are written by no kernel: the producer does not wait for the one before.
    if (threadIdx.x == threads) produce(p, ring);
    return;
  }
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
  FusedStepShape const& sh = p.shape;
  int const length = *p.io.length, position = p.io.positions[0];
  KeySplit const split = key_split(length, p.max_splits);
  bool const writer = blockIdx.x == 0;  // writes the residual stream's next values
  int kv_uses = 0;
  // NOTE: chosen, not indexed: a parameter array indexed at run time is copied to local memory.
  auto const residual = [&](int i) { return i % 2 == 0 ? p.io.residual[0] : p.io.residual[1]; };
  for (int l = 0; l < sh.layers; ++l) {
    FusedLayer const w = p.layers[l];
    int const n = 2 * l;  // the stream's norm before attention: it reads buffer n % 2, writes the other
    norm_row(l == 0 ? nullptr : residual(n), l == 0 ? p.io.input : p.io.delta, w.input_norm, sh.hidden, p.eps,
             writer ? residual(n + 1) : nullptr, act, scratch);
    project<false>(p, ring, Projection::qkv, act, row_out, partial, p.io.qkv);
    p.barrier.sync(sync_consumers);
    if (int(blockIdx.x) < sh.heads_kv * split.count)
      attend<HeadDim>(p, w, l + 1 < sh.layers ? &p.layers[l + 1] : nullptr, int(blockIdx.x) % sh.heads_kv,
                      int(blockIdx.x) / sh.heads_kv, split, length, position, attention, &kv_full, kv_uses);
    p.barrier.sync(sync_consumers);
    load_row(p.attention_out, sh.heads_q * HeadDim, act);
    project<false>(p, ring, Projection::o, act, row_out, partial, p.io.delta);
    p.barrier.sync(sync_consumers);
    norm_row(residual(n + 1), p.io.delta, w.post_norm, sh.hidden, p.eps, writer ? residual(n) : nullptr,
             act, scratch);
    if (w.router != nullptr)
      sparse_mlp(p, ring, act, row_out, partial, choice, choice_weight);
    else
      dense_mlp(p, ring, act, row_out, partial);
    if (l + 1 < sh.layers || p.io.final_norm != nullptr) p.barrier.sync(sync_consumers);
  }
  if (p.io.final_norm == nullptr || !writer) return;
  norm_row(p.io.residual[0], p.io.delta, p.io.final_norm, sh.hidden, p.eps, p.io.residual[1], act, scratch);
  for (int v = int(threadIdx.x); v < sh.hidden / 8; v += threads)
    reinterpret_cast<uint4*>(p.io.normed)[v] = reinterpret_cast<uint4 const*>(act)[v];
}

}  // namespace fused_step

namespace {
constexpr char kRule[] =
    "cute-cpp [qwen3.fused-step]: the fused decode step takes one sequence of a dense Qwen3 decoder (head_dim 64, 128 "
    "or 256, at most 8 q heads a kv head, projection inputs of at most 16384) on one GPU whose shared memory holds "
    "its ring, and a step's device pointers";

}  // namespace

std::string FusedStep::refusal(FusedStepShape const& shape) {
  // Less the kernel's static shared memory (ring barriers, partial sums, scratch: under 2 KB).
  return fused_step::refusal(shape, host::multiprocessor_count(), host::shared_memory_per_block_optin() - 4096);
}

FusedStep::FusedStep(FusedStepShape shape, std::vector<FusedLayer> const& layers, QkNormRopeParams const& rope,
                     float eps)
    : grid_(host::multiprocessor_count()) {
  if (std::string const why = refusal(shape); !why.empty() || layers.size() != std::size_t(shape.layers))
    throw std::invalid_argument(std::string(kRule) + ": it needs " + (why.empty() ? "one FusedLayer a layer" : why));
  smem_ = fused_step::smem_layout(shape, grid_).total;
  layers_ = host::DeviceBuffer<FusedLayer>(layers.size());
  layers_.upload(std::span<FusedLayer const>(layers));
  int const splits = fused_step::max_splits(shape, grid_);
  partials_ = host::DeviceBuffer<float>(std::size_t(splits) * shape.heads_q * fused_step::partial_floats(shape));
  arrivals_ = host::DeviceBuffer<std::uint32_t>(std::size_t(shape.heads_kv));
  arrivals_.fill_bytes(0);
  attention_out_ = host::DeviceBuffer<bf16>(std::size_t(shape.heads_q) * shape.head_dim);
  for (FusedLayer const& l : layers)
    if (l.router != nullptr && shape.experts == 0)
      throw std::invalid_argument(std::string(kRule) + ": it needs the shape's experts for a sparse layer");
  if (shape.experts != 0) {
    router_logits_ = host::DeviceBuffer<bf16>(std::size_t(shape.experts));
    expert_h_ = host::DeviceBuffer<bf16>(std::size_t(shape.top_k) * shape.expert_ffn);
    fixed_.router_logits = router_logits_.data(), fixed_.expert_h = expert_h_.data();
  }
  barrier_count_ = host::DeviceBuffer<std::uint64_t>(1);
  barrier_count_.fill_bytes(0);
  fixed_.shape = shape;
  fixed_.layers = layers_.data();
  fixed_.eps = eps;
  fixed_.scale_log2 = float(1.4426950408889634 / std::sqrt(double(shape.head_dim)));
  fixed_.partials = partials_.data();
  fixed_.arrivals = arrivals_.data();
  fixed_.attention_out = attention_out_.data();
  fixed_.max_splits = splits;
  fixed_.rope = rope;
  fixed_.rope.tokens = 1;
  fixed_.rope.position_plane = 1;  // a step's positions: [4, 1]
  fixed_.barrier.count = barrier_count_.data();
}

void FusedStep::run(FusedStepIo const& io, cudaStream_t stream) {
  if (io.block_table == nullptr || io.input == nullptr || io.delta == nullptr || io.qkv == nullptr ||
      io.ffn_hidden == nullptr || io.residual[0] == nullptr || io.residual[1] == nullptr || io.positions == nullptr ||
      io.length == nullptr || (io.final_norm != nullptr && io.normed == nullptr))
    throw std::invalid_argument(std::string(kRule) + ": a step needs its input, residual, delta, qkv, ffn_hidden, "
                                "positions, length and block table (and normed with a final norm)");
  FusedStepParams step = fixed_;
  step.io = io;
  step.rope.cache.block_table = io.block_table;
  host::LaunchConfig config;
  config.grid = dim3(unsigned(grid_));
  config.block = dim3(unsigned(fused_step::block_threads));
  config.smem_bytes = std::size_t(smem_);
  config.stream = stream;
  config.cooperative = true;
  auto const go = [&](auto kernel) { host::launch(kernel, "qwen3_fused_step", config, step); };
  switch (fixed_.shape.head_dim) {
    case 64: return go(&fused_step::fused_step_kernel<64>);
    case 128: return go(&fused_step::fused_step_kernel<128>);
    default: return go(&fused_step::fused_step_kernel<256>);
  }
}

}  // namespace cute_cpp::models
