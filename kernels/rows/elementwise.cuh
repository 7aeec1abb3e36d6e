// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Elementwise apply: out[i] = f(in0[i], in1[i], ...) over any number of inputs of any element
// types, with 16-byte vector loads and stores. Any length works (scalar tails); pointers that
// share their misalignment are peeled to the vector boundary, and pointers that do not fall back
// to scalar access. elementwise_add is apply with Add.
#include <cute_cpp/host/arguments.hpp>  // check_device_pointers, check_stream, check_disjoint
#include <cute_cpp/config.hpp>
#include <cute_cpp/host/launch.hpp>
#include <cute_cpp/diag/verify_plan.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cute_cpp::kernels {

inline constexpr int elementwise_threads = 256;
inline constexpr int elementwise_unroll = 4;  // vectors per thread, loaded before any is stored

/// The elementwise kernel's plan, for verify_plan: a block of 256 threads, no shared memory.
using ElementwisePlan = KernelPlan<elementwise_threads>;

/// Elements per vector: 16 bytes of the narrowest element type among the output and inputs.
template <class Out, class... In>
inline constexpr int elems_per_vector = static_cast<int>(16 / std::min({sizeof(Out), sizeof(In)...}));

/// N elements of T moved as one aligned access (several 16-byte accesses when wider).
template <class T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

/// out = a + b, computed in fp32 and rounded to the output type.
struct Add {
  template <class A, class B>
  CUTE_CPP_HD float operator()(A a, B b) const {
    return static_cast<float>(a) + static_cast<float>(b);
  }
};

namespace detail {

template <int Epv, class F, class Out, class... In>
__device__ __forceinline__ void apply_vector(F const& f, std::size_t v, Out* __restrict__ out,
                                             In const*... in) {
  Pack<Out, Epv> result;
  // NOTE: the packs are taken by value, so each input is read with whole-vector loads.
  [&](Pack<In, Epv> const... packs) {
#pragma unroll
    for (int e = 0; e < Epv; ++e) result.v[e] = static_cast<Out>(f(packs.v[e]...));
  }(reinterpret_cast<Pack<In, Epv> const*>(in)[v]...);
  reinterpret_cast<Pack<Out, Epv>*>(out)[v] = result;
}

}  // namespace detail

/// One thread block covers elementwise_threads * elementwise_unroll vectors of Epv elements
/// starting after `head` scalar elements; the first threads of the grid also do the head and
/// the tail, one element each.
template <int Epv, class F, class Out, class... In>
__global__ void __launch_bounds__(elementwise_threads)
elementwise_kernel(F f, std::size_t n, std::size_t head, Out* __restrict__ out, In const*... in) {
  static_assert(verify_plan<ElementwisePlan>());
  std::size_t const vectors = (n - head) / Epv;
  std::size_t const first = static_cast<std::size_t>(blockIdx.x) * elementwise_unroll * elementwise_threads;
  Out* const body_out = out + head;
#pragma unroll
  for (int u = 0; u < elementwise_unroll; ++u) {
    std::size_t const v = first + static_cast<std::size_t>(u) * elementwise_threads + threadIdx.x;
    if (v < vectors) detail::apply_vector<Epv>(f, v, body_out, (in + head)...);
  }
  std::size_t const thread = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  std::size_t const tail_start = head + vectors * Epv;
  if (thread < head) out[thread] = static_cast<Out>(f(in[thread]...));
  if (thread < n - tail_start) out[tail_start + thread] = static_cast<Out>(f(in[tail_start + thread]...));
}

namespace detail {

/// Elements before `p` reaches a `bytes` boundary, or -1 if p is not even element-aligned.
template <class T>
long long elements_to_boundary(T const* p, std::size_t bytes) {
  auto const address = reinterpret_cast<std::uintptr_t>(p);
  if (address % alignof(T) != 0) return -1;
  return static_cast<long long>(((bytes - address % bytes) % bytes) / sizeof(T));
}

template <int Epv, class F, class Out, class... In>
void launch_elementwise(F f, std::size_t n, std::size_t head, cudaStream_t stream, Out* out, In const*... in) {
  std::size_t const vectors = (n - head) / Epv;
  std::size_t const per_block = static_cast<std::size_t>(elementwise_threads) * elementwise_unroll;
  std::size_t const blocks = std::max<std::size_t>(1, (vectors + per_block - 1) / per_block);
  if (blocks > 0x7fffffffu) throw std::invalid_argument("cute-cpp [elementwise.size]: too many elements for one launch");
  host::LaunchConfig config;
  config.grid = dim3(static_cast<unsigned>(blocks));
  config.block = dim3(elementwise_threads);
  config.stream = stream;
  host::launch(&elementwise_kernel<Epv, F, Out, In...>, "elementwise_kernel", config, f, n, head, out, in...);
}

}  // namespace detail

/// out[i] = f(in[i]...) for i < n. Every pointer must be aligned to its element type
/// ([elementwise.pointer-alignment]); vector access needs all pointers equally misaligned
/// relative to 16 bytes, which holds for any offsets into cudaMalloc'd buffers of one type.
template <class F, class Out, class... In>
void elementwise_apply(F f, std::size_t n, cudaStream_t stream, Out* out, In const*... in) {
  static_assert(sizeof...(In) >= 1, "cute-cpp [elementwise.inputs]: elementwise_apply needs at least one input");
  if (n == 0) return;
  constexpr int epv = elems_per_vector<Out, In...>;
  long long const heads[] = {detail::elements_to_boundary(out, sizeof(Pack<Out, epv>)),
                             detail::elements_to_boundary(in, sizeof(Pack<In, epv>))...};
  for (long long h : heads) {
    if (h < 0) {
      throw std::invalid_argument(
          "cute-cpp [elementwise.pointer-alignment]: every pointer must be aligned to its element type");
    }
  }
  host::PointerArgument const pointers[] = {{"out", out}, {"in", in}...};
  host::check_device_pointers("elementwise", pointers, stream);
  host::check_stream("elementwise", stream);
  // In place (out == an input, element for element) is allowed: each element is read before it
  // is written, by the same thread; a shifted overlap is not.
  auto const shifted = [&](void const* p, std::size_t bytes) {
    return p == static_cast<void const*>(out) ? host::ByteRange{"in", nullptr, 0} : host::ByteRange{"in", p, bytes};
  };
  host::ByteRange const inputs[] = {shifted(in, n * sizeof(In))...};
  host::ByteRange const written{"out", out, n * sizeof(Out)};
  host::check_disjoint("elementwise", written, inputs);
  bool const same_head = std::all_of(std::begin(heads), std::end(heads), [&](long long h) { return h == heads[0]; });
  if (same_head && static_cast<std::size_t>(heads[0]) < n) {
    detail::launch_elementwise<epv>(f, n, static_cast<std::size_t>(heads[0]), stream, out, in...);
  } else {
    detail::launch_elementwise<1>(f, n, 0, stream, out, in...);
  }
}

/// out = a + b elementwise (computed in fp32, rounded to Out).
template <class Out, class A, class B>
void elementwise_add(A const* a, B const* b, Out* out, std::size_t n, cudaStream_t stream = nullptr) {
  elementwise_apply(Add{}, n, stream, out, a, b);
}

}  // namespace cute_cpp::kernels
