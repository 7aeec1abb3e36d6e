// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3_tts/codec_kernels.cuh: the decoder's small memory-bound kernels that the kernel
// families do not cover, each with its launcher:
//   rvq_decode:  out[b, t, :] = sum_q table[q][codes[b, q, t], :] (the split RVQ's two halves and
//                their output projections, folded into the tables at load time);
//   rope:        RoPE (rotate-half form, as the reference) on the q and k heads of a stacked qkv;
//   snake_beta:  SnakeBeta before a conv (the convs apply it to their outputs only);
//   waveform:    the last conv's bf16 output clamped to [-1, 1] as float.
#include <cute_cpp/host/launch.hpp>             // launch, LaunchConfig
#include <cute_cpp/kernels/conv/conv_plan.hpp>  // kernels::snake_beta, snake_beta_eps

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace cute_cpp::models::qwen3_tts {

// ---- rvq_decode ----

/// One block a frame (b, t); threads over the channels, two at a time. The codes were checked on
/// the host (0 <= code < codebook_size).
template <int = 0>  // a template for its linkage, as kernels/ headers' are
__global__ void __launch_bounds__(256)
rvq_decode_kernel(__nv_bfloat16 const* __restrict__ tables, std::int32_t const* __restrict__ codes,
                  __nv_bfloat16* __restrict__ out, int frames, int quantizers, int codebook_size, int dim) {
  int const t = int(blockIdx.x), b = int(blockIdx.y);
  for (int c = 2 * int(threadIdx.x); c < dim; c += 2 * int(blockDim.x)) {
    float lo = 0.f, hi = 0.f;
    for (int q = 0; q < quantizers; ++q) {
      std::int64_t const code = codes[(std::int64_t(b) * quantizers + q) * frames + t];
      auto const v = *reinterpret_cast<__nv_bfloat162 const*>(
          tables + ((std::int64_t(q) * codebook_size + code) * dim + c));
      lo += __low2float(v);
      hi += __high2float(v);
    }
    *reinterpret_cast<__nv_bfloat162*>(out + (std::int64_t(b) * frames + t) * dim + c) = __floats2bfloat162_rn(lo, hi);
  }
}

/// codes [batch, quantizers, frames] (the reference's layout) -> out (batch, frames, dim). @pre dim even.
inline void rvq_decode(__nv_bfloat16 const* tables, std::int32_t const* codes, __nv_bfloat16* out, int batch,
                       int frames, int quantizers, int codebook_size, int dim, cudaStream_t stream) {
  if (batch == 0 || frames == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned(frames), unsigned(batch));
  config.block = dim3(256);
  config.stream = stream;
  host::launch(&rvq_decode_kernel<>, "rvq_decode_kernel", config, tables, codes, out, frames, quantizers, codebook_size,
               dim);
}

// ---- rope ----

/// One warp a (row, head) of the q and k heads of qkv rows (row_stride apart): x[i], x[i + half]
/// become x[i] cos - x[i + half] sin and x[i + half] cos + x[i] sin at angle position * inv_freq[i],
/// position = row % frames (each sequence starts at 0, as each reference call does).
template <int = 0>  // a template for its linkage, as kernels/ headers' are
__global__ void __launch_bounds__(128)
rope_kernel(__nv_bfloat16* __restrict__ qkv, float const* __restrict__ inv_freq, std::int64_t rows, int frames,
            int heads, int head_dim, std::int64_t row_stride) {
  std::int64_t const item = std::int64_t(blockIdx.x) * 4 + threadIdx.x / 32;
  if (item >= rows * heads) return;
  std::int64_t const row = item / heads;
  int const head = int(item % heads), lane = int(threadIdx.x % 32), half = head_dim / 2;
  __nv_bfloat16* const x = qkv + row * row_stride + std::int64_t(head) * head_dim;
  float const position = float(row % frames);
  for (int i = lane; i < half; i += 32) {
    float const a = __bfloat162float(x[i]), b = __bfloat162float(x[i + half]);
    float s, c;
    sincosf(position * inv_freq[i], &s, &c);
    x[i] = __float2bfloat16(a * c - b * s);
    x[i + half] = __float2bfloat16(b * c + a * s);
  }
}

/// RoPE on the first `heads` (q then k) heads of each row. @pre head_dim even.
inline void rope(__nv_bfloat16* qkv, float const* inv_freq, std::int64_t rows, int frames, int heads, int head_dim,
                 std::int64_t row_stride, cudaStream_t stream) {
  if (rows == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned((rows * heads + 3) / 4));
  config.block = dim3(128);
  config.stream = stream;
  host::launch(&rope_kernel<>, "rope_kernel", config, qkv, inv_freq, rows, frames, heads, head_dim, row_stride);
}

// ---- snake_beta ----

/// y = x + sin^2(x e^alpha_log[c]) / (e^beta_log[c] + 1e-9) over (rows, channels), channels fastest.
template <int = 0>  // a template for its linkage, as kernels/ headers' are
__global__ void __launch_bounds__(256)
snake_beta_kernel(__nv_bfloat16 const* __restrict__ x, __nv_bfloat16* __restrict__ y,
                  float const* __restrict__ alpha_log, float const* __restrict__ beta_log, std::int64_t n,
                  int channels) {
  std::int64_t const stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    int const c = int(i % channels);
    float const a = expf(alpha_log[c]);
    float const inv_b = 1.0f / (expf(beta_log[c]) + float(kernels::snake_beta_eps));
    y[i] = __float2bfloat16(kernels::snake_beta(__bfloat162float(x[i]), a, inv_b));
  }
}

inline void snake_beta(__nv_bfloat16 const* x, __nv_bfloat16* y, float const* alpha_log, float const* beta_log,
                       std::int64_t rows, int channels, cudaStream_t stream) {
  std::int64_t const n = rows * channels;
  if (n == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned(std::min<std::int64_t>((n + 255) / 256, 8192)));
  config.block = dim3(256);
  config.stream = stream;
  host::launch(&snake_beta_kernel<>, "snake_beta_kernel", config, x, y, alpha_log, beta_log, n, channels);
}

// ---- waveform ----

template <int = 0>  // a template for its linkage, as kernels/ headers' are
__global__ void __launch_bounds__(256)
waveform_kernel(__nv_bfloat16 const* __restrict__ x, float* __restrict__ out, std::int64_t n) {
  std::int64_t const stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = fminf(fmaxf(__bfloat162float(x[i]), -1.0f), 1.0f);
}

inline void waveform(__nv_bfloat16 const* x, float* out, std::int64_t n, cudaStream_t stream) {
  if (n == 0) return;
  host::LaunchConfig config;
  config.grid = dim3(unsigned(std::min<std::int64_t>((n + 255) / 256, 8192)));
  config.block = dim3(256);
  config.stream = stream;
  host::launch(&waveform_kernel<>, "waveform_kernel", config, x, out, n);
}

}  // namespace cute_cpp::models::qwen3_tts
