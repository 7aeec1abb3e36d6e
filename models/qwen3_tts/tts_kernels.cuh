// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3_tts/tts_kernels.cuh: the small kernels of Qwen3-TTS's input and frame handling, all
// memory-bound and tiny beside the GEMMs: a Linear's bias (and SiLU), the prompt rows' sums of a
// text part and a codec embedding, the talker's logit processors (repetition penalty, suppressed
// ids, the eos held back for the first frames) with its greedy pick, and the end of a frame (the
// next talker input: the sum of the frame's 16 codec embeddings plus its text row; the frame's
// counters). Roundings follow the reference's bf16 arithmetic: one rounding per torch op.
// Each kernel lets its dependent launch and waits for its predecessor's memory first thing, so that a
// frame's graph may make its kernel edges programmatic (host/graph_pdl.hpp's contract).
#include <cute_cpp/arch/griddepcontrol.hpp>  // griddepcontrol_wait, griddepcontrol_launch_dependents
#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace cute_cpp::models::qwen3_tts {

using bf16 = __nv_bfloat16;

__device__ __forceinline__ float round_bf16(float x) { return __bfloat162float(__float2bfloat16(x)); }

/// Programmatic dependent launch (no-ops for a plain launch): the next grid may launch now; this one
/// waits for its predecessor's memory before touching global memory. Every thread calls it before any
/// return, so the grid completes only after its predecessor (a PDL chain stays ordered).
__device__ __forceinline__ void after_predecessor() {
  arch::griddepcontrol_launch_dependents();
  arch::griddepcontrol_wait();
}

/// x[r, j] = round(x[r, j] + bias[j]), then round(silu(.)) when `silu`: a Linear's bias after the GEMM.
template <int = 0>  // a template for its linkage, as kernels/ headers' are
__global__ void __launch_bounds__(256) bias_act_kernel(bf16* __restrict__ x, bf16 const* __restrict__ bias,
                                                       std::int64_t rows, int cols, bool silu) {
  after_predecessor();
  std::int64_t const i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  float y = round_bf16(__bfloat162float(x[i]) + __bfloat162float(bias[i % cols]));
  if (silu) y = round_bf16(y / (1.0f + expf(-y)));
  x[i] = __float2bfloat16(y);
}

inline void bias_act(bf16* x, bf16 const* bias, std::int64_t rows, int cols, bool silu, cudaStream_t stream) {
  host::LaunchConfig config;
  config.grid = dim3(unsigned((rows * cols + 255) / 256));
  config.block = dim3(256);
  config.stream = stream;
  host::launch(&bias_act_kernel<>, "qwen3_tts bias_act_kernel", config, x, bias, rows, cols, silu);
}

/// out[r] = (text[r] >= 0 ? projected[r] : 0) + (codec[r] >= 0 ? codec_table[codec[r]] : 0), rounded
/// once (the reference adds the two bf16 tensors). Codec ids outside [0, codec_rows) count as absent.
template <int = 0>  // a template for its linkage, as kernels/ headers' are
__global__ void __launch_bounds__(256) combine_rows_kernel(bf16* __restrict__ out, bf16 const* __restrict__ projected,
                                                           std::int32_t const* __restrict__ text,
                                                           bf16 const* __restrict__ codec_table, std::int64_t codec_rows,
                                                           std::int32_t const* __restrict__ codec, std::int64_t rows,
                                                           int width) {
  after_predecessor();
  std::int64_t const i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= rows * width) return;
  std::int64_t const r = i / width, j = i % width;
  float x = text[r] >= 0 ? __bfloat162float(projected[i]) : 0.0f;
  std::int32_t const c = codec[r];
  if (c >= 0 && c < codec_rows) x += __bfloat162float(codec_table[std::int64_t(c) * width + j]);
  out[i] = __float2bfloat16(x);
}

inline void combine_rows(bf16* out, bf16 const* projected, std::int32_t const* text, bf16 const* codec_table,
                         std::int64_t codec_rows, std::int32_t const* codec, std::int64_t rows, int width,
                         cudaStream_t stream) {
  host::LaunchConfig config;
  config.grid = dim3(unsigned((rows * width + 255) / 256));
  config.block = dim3(256);
  config.stream = stream;
  host::launch(&combine_rows_kernel<>, "qwen3_tts combine_rows_kernel", config, out, projected, text, codec_table,
               codec_rows, codec, rows, width);
}

/// The talker's logit processors, as the reference's generate configures transformers' (in their
/// order: repetition penalty, min_new_tokens, suppress_tokens), on the float32 logits.
struct TalkerRules {
  int vocab = 0;
  int eos = 0;
  int suppress_from = 0;      ///< ids [suppress_from, vocab) but eos are never drawn (vocab - 1024)
  int min_frames = 2;         ///< eos is held back while fewer frames were drawn
  float repetition_penalty = 1.0f;
};

/// The scores kernel's block: one warp's best per slot of best_value / best_id.
inline constexpr int kScoresThreads = 1024;
static_assert(kScoresThreads % 32 == 0 && kScoresThreads / 32 <= 32,
              "cute-cpp: tts.scores-block: the block's warps must fit the 32 per-warp slots");

/// One block: scores = the processed logits (bf16, for the sampler), and with `greedy` the argmax
/// of the float32 processed logits written to *code (ties: the smaller id, as torch.argmax).
/// `seen`: 1 for each id drawn as a frame's first code so far; *frame: frames drawn so far.
template <int = 0>  // a template for its linkage, as kernels/ headers' are
__global__ void __launch_bounds__(kScoresThreads) talker_scores_kernel(bf16 const* __restrict__ logits, bf16* __restrict__ scores,
                                                             std::uint8_t const* __restrict__ seen,
                                                             std::int32_t const* __restrict__ frame, TalkerRules rules,
                                                             bool greedy, std::int32_t* __restrict__ code) {
  after_predecessor();
  __shared__ float best_value[32];
  __shared__ int best_id[32];
  float best = -INFINITY;
  int best_at = rules.vocab;
  bool const hold_eos = *frame < rules.min_frames;
  for (int i = int(threadIdx.x); i < rules.vocab; i += int(blockDim.x)) {
    float x = __bfloat162float(logits[i]);
    if (seen[i]) x = x < 0.0f ? x * rules.repetition_penalty : x / rules.repetition_penalty;
    if ((i >= rules.suppress_from && i != rules.eos) || (i == rules.eos && hold_eos)) x = -INFINITY;
    scores[i] = __float2bfloat16(x);
    if (x > best || (x == best && i < best_at)) best = x, best_at = i;
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    float const v = __shfl_xor_sync(0xffffffffu, best, offset);
    int const at = __shfl_xor_sync(0xffffffffu, best_at, offset);
    if (v > best || (v == best && at < best_at)) best = v, best_at = at;
  }
  if (threadIdx.x % 32 == 0) best_value[threadIdx.x / 32] = best, best_id[threadIdx.x / 32] = best_at;
  __syncthreads();
  if (threadIdx.x == 0 && greedy) {
    for (int w = 1; w < int(blockDim.x / 32); ++w)
      if (best_value[w] > best || (best_value[w] == best && best_id[w] < best_at)) best = best_value[w], best_at = best_id[w];
    *code = best_at < rules.vocab ? best_at : 0;
  }
}

inline void talker_scores(bf16 const* logits, bf16* scores, std::uint8_t const* seen, std::int32_t const* frame,
                          TalkerRules const& rules, bool greedy, std::int32_t* code, cudaStream_t stream) {
  host::LaunchConfig config;
  config.grid = dim3(1);
  config.block = dim3(kScoresThreads);
  config.stream = stream;
  host::launch(&talker_scores_kernel<>, "qwen3_tts talker_scores_kernel", config, logits, scores, seen, frame, rules,
               greedy, code);
}

/// Where a frame's pieces are (device pointers), for frame_finish.
struct FrameState {
  std::int32_t const* codes = nullptr;   ///< [groups]: this frame's codes
  bf16 const* const* tables = nullptr;   ///< [groups]: group g's embedding table (the talker's codec table first)
  bf16 const* text_rows = nullptr;       ///< [text_count + 1, width]: the text part of frame f's input, last: tts_pad
  int text_count = 0;
  int groups = 0, width = 0;
  std::int32_t prompt = 0;               ///< the talker's prompt rows
  std::int32_t* frame = nullptr;         ///< frames finished so far (incremented)
  std::uint64_t* random_step = nullptr;  ///< the sampler's device step: frame x groups (set)
  std::int32_t* out = nullptr;           ///< [max_frames, groups]: every frame's codes
  int max_frames = 0;
  std::uint8_t* seen = nullptr;          ///< the repetition penalty's set of first codes
  bf16* next_input = nullptr;            ///< [width]: the talker's next input
  std::int32_t* positions = nullptr;     ///< [4]: the talker step's position planes
  std::int32_t* length = nullptr;        ///< the talker's cached length after the step
};

/// One block: the frame's codes to out[frame]; next_input = round(round(sum of the groups' embeddings)
/// + text row) (the reference sums the 16 bf16 embeddings in one op, then adds the text part); the
/// talker step's position prompt + frame and length prompt + frame + 1; the counters advanced.
template <int = 0>  // a template for its linkage, as kernels/ headers' are
__global__ void __launch_bounds__(256) frame_finish_kernel(FrameState s) {
  after_predecessor();
  std::int32_t const f = *s.frame;
  if (f < s.max_frames)
    for (int g = int(threadIdx.x); g < s.groups; g += int(blockDim.x)) s.out[std::int64_t(f) * s.groups + g] = s.codes[g];
  bf16 const* const text = s.text_rows + std::int64_t(f < s.text_count ? f : s.text_count) * s.width;
  for (int j = int(threadIdx.x); j < s.width; j += int(blockDim.x)) {
    float sum = 0.0f;
    for (int g = 0; g < s.groups; ++g) sum += __bfloat162float(s.tables[g][std::int64_t(s.codes[g]) * s.width + j]);
    s.next_input[j] = __float2bfloat16(round_bf16(sum) + __bfloat162float(text[j]));
  }
  __syncthreads();  // every thread has read *s.frame
  if (threadIdx.x == 0) {
    s.seen[s.codes[0]] = 1;
    for (int plane = 0; plane < 4; ++plane) s.positions[plane] = s.prompt + f;
    *s.length = s.prompt + f + 1;
    *s.frame = f + 1;
    *s.random_step = std::uint64_t(f + 1) * std::uint64_t(s.groups);
  }
}

inline void frame_finish(FrameState const& s, cudaStream_t stream) {
  host::LaunchConfig config;
  config.grid = dim3(1);
  config.block = dim3(256);
  config.stream = stream;
  host::launch(&frame_finish_kernel<>, "qwen3_tts frame_finish_kernel", config, s);
}

}  // namespace cute_cpp::models::qwen3_tts
