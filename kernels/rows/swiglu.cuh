// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// SwiGLU, fused: out[r, j] = silu(x[r, j]) * x[r, hidden + j] for an input of (rows, 2*hidden)
// whose first half of each row is the gate and second half the up projection (the layout of a
// fused gate/up GEMM's output), bf16 / f16 / f32, f32 arithmetic. Each thread handles unroll
// 16-byte vectors of the output, all loaded before any is stored; any hidden size (scalars when
// the size or pointers do not allow vectors).
#include <cute_cpp/kernels/common/align.hpp>

#include <cute_cpp/host/arguments.hpp>  // check_device_pointers, check_stream, check_disjoint
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/diag/verify_plan.hpp>
#include <cute_cpp/tensor.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace cute_cpp::kernels {

inline constexpr int swiglu_threads = 256;

/// The swiglu kernel's plan, for verify_plan: 256 threads, no shared memory.
using SwigluPlan = KernelPlan<swiglu_threads>;
inline constexpr int swiglu_unroll = 4;

template <class T, int V>
__global__ void __launch_bounds__(swiglu_threads)
swiglu_kernel(T const* __restrict__ x, T* __restrict__ out, std::int64_t rows, std::int64_t hidden) {
  static_assert(verify_plan<SwigluPlan>());
  using Tile = RegisterTile<T, V>;
  auto const gX = make_tensor(x, make_layout(make_shape(rows, C<2>{}, hidden), make_stride(2 * hidden, hidden, C<1>{})));  // (rows,gate|up,hidden)
  auto const gO = make_tensor(out, make_layout(make_shape(rows, hidden), make_stride(hidden, C<1>{})));  // (rows,hidden)
  // NOTE: 32-bit division (the host keeps rows * hidden / V below 2^32); 64-bit division is a call.
  std::uint32_t const per_row = std::uint32_t(hidden / V);
  std::uint32_t const vectors = std::uint32_t(rows * (hidden / V));
  std::uint32_t const first = blockIdx.x * swiglu_threads * swiglu_unroll + threadIdx.x;
  Tile gate[swiglu_unroll], up[swiglu_unroll];
  std::uint32_t row[swiglu_unroll], col[swiglu_unroll];  // of each vector, for its store
#pragma unroll
  for (int u = 0; u < swiglu_unroll; ++u) {
    // NOTE: past the end, a thread loads the last vector again (and stores nothing): loaded under
    // a condition, nvcc kept every bf16 of the tiles in a register of its own (71 to 76
    // registers a thread against 48 for f16). With the division below: H200, 16384 x 8192 bf16,
    // 0.68 of a device copy before both changes, 1.01 after (not measured apart).
    std::uint32_t const v = min(first + std::uint32_t(u) * swiglu_threads, vectors - 1);
    row[u] = v / per_row, col[u] = (v % per_row) * V;
    gate[u] = Tile::template load_vector<V>(&gX(row[u], 0, col[u]));
    up[u] = Tile::template load_vector<V>(&gX(row[u], 1, col[u]));
  }
#pragma unroll
  for (int u = 0; u < swiglu_unroll; ++u) {
    std::uint32_t const v = first + std::uint32_t(u) * swiglu_threads;
    if (v < vectors) {  // then the load above took v itself
      auto const g = gate[u].template to<float>();
      // NOTE: __expf and __fdividef (ex2.approx, rcp.approx), not the IEEE division with its
      // range check and slow-path branch per element. __fdividef returns 0 when
      // 1 + exp(-a) > 2^126 (a < -87), where |silu(a)| is below 1e-36.
      auto const silu = g.map([](float a) { return __fdividef(a, 1.f + __expf(-a)); });
      (silu * up[u].template to<float>()).template to<T>().template store_vector<V>(&gO(row[u], col[u]));
    }
  }
}

/// out (rows, hidden) = silu(x[:, :hidden]) * x[:, hidden:] for x of (rows, 2*hidden), row-major.
template <class T>
void swiglu(T const* x, T* out, std::size_t rows, std::size_t hidden, cudaStream_t stream = nullptr) {
  if (rows == 0 || hidden == 0) return;
  host::PointerArgument const pointers[] = {{"x", x}, {"out", out}};
  host::check_device_pointers("swiglu", pointers, stream);
  host::check_stream("swiglu", stream);
  host::ByteRange const inputs[] = {{"x", x, rows * 2 * hidden * sizeof(T)}};
  host::ByteRange const written{"out", out, rows * hidden * sizeof(T)};
  host::check_disjoint("swiglu", written, inputs);
  constexpr int full = int(16 / sizeof(T));
  bool const vec = hidden % full == 0 && aligned16(x) && aligned16(out);
  auto go = [&]<int V>() {
    std::size_t const vectors = rows * (hidden / V);
    std::size_t const per_block = std::size_t(swiglu_threads) * swiglu_unroll;
    std::size_t const blocks = (vectors + per_block - 1) / per_block;
    if (vectors > 0xfffff000u) throw std::invalid_argument("cute-cpp [swiglu.size]: too many elements for one launch");
    host::LaunchConfig config;
    config.grid = dim3(unsigned(blocks));
    config.block = dim3(swiglu_threads);
    config.stream = stream;
    host::launch(&swiglu_kernel<T, V>, "swiglu_kernel", config, x, out, std::int64_t(rows), std::int64_t(hidden));
  };
  if (vec) go.template operator()<full>();
  else go.template operator()<1>();
}

}  // namespace cute_cpp::kernels
