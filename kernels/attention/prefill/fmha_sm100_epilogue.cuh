// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The Blackwell attention forward's epilogue (fmha_sm100.cuh), run by the softmax warpgroup after
// a tile's last P V: each thread reads its row of O from tensor memory (32 columns a copy),
// divides it by the row sum, and stores it, 16-bit, to global memory 16 bytes at a time when the
// row lies in its sequence (ragged and varlen tiles need no clipping by TMA); then the LSE.
#include <cute_cpp/kernels/attention/prefill/fmha_sm100.hpp>
#include <cute_cpp/kernels/attention/prefill/fmha_sm100_softmax.cuh>
#include <cute_cpp/kernels/attention/prefill/fmha_tile.cuh>
#include <cute_cpp/arch/tmem.hpp>

#include <cmath>
#include <cstdint>

namespace cute_cpp::kernels {

/// Where a softmax thread's row goes: its O row (null: the row lies past its sequence) and its
/// LSE (null: none asked for, or past the sequence).
template <class T>
struct FmhaSm100RowOutput {
  T* o = nullptr;
  float* lse = nullptr;
};

/// The output row of tile row `row` of tile `t` (fmha_tile), for O with batch stride
/// `o_batch_stride` (elements; unused for varlen, whose rows are packed).
template <class T>
__device__ __forceinline__ FmhaSm100RowOutput<T> fmha_sm100_row_output(FmhaParams const& p, FmhaTile const& t,
                                                                        std::int32_t query,
                                                                        std::int64_t o_batch_stride) {
  FmhaSm100RowOutput<T> out;
  if (query >= t.seq_q) return out;
  std::int64_t const b = p.varlen() ? 0 : t.batch;
  std::int64_t const packed_row = std::int64_t(t.q_offset) + query;
  out.o = static_cast<T*>(p.o) + b * o_batch_stride + packed_row * p.o_seq_stride + t.head * p.o_head_stride;
  if (p.lse != nullptr) out.lse = p.lse + t.head * p.lse_head_stride + t.batch * p.lse_batch_stride + packed_row;
  return out;
}

/// O's row (tensor memory) times `inverse`, converted and stored to `out` (when not null). The
/// warp's tcgen05.ld are collective: every lane loads.
template <class Plan>
__device__ __forceinline__ void fmha_sm100_store_o(std::uint32_t tmem, int warp, int lane, float inverse,
                                                   typename Plan::Element* out) {
  using T = typename Plan::Element;
  using Atom = typename Plan::RowAtom;
  using Copy = sm100::TmemThrCopy<typename Plan::MmaO::Accumulator, Atom>;
  Copy const slice = sm100::get_slice<typename Plan::MmaO::Accumulator, Atom>(warp, lane);
  std::uint32_t const o_tmem = tmem + std::uint32_t(Plan::tmem_o);
#pragma unroll
  for (int i = 0; i < Copy::copies; ++i) {
    std::uint32_t r[Atom::registers];
    Atom::load(r, slice.tmem_addr(o_tmem, i));
    arch::fence_view_async_tmem_load();
    if (out == nullptr) continue;
#pragma unroll
    for (int u = 0; u < Atom::registers / 8; ++u) {
      alignas(16) T unit[8];
#pragma unroll
      for (int e = 0; e < 8; ++e) unit[e] = T(__uint_as_float(r[8 * u + e]) * inverse);
      *reinterpret_cast<uint4*>(out + slice.col(i, 8 * u)) = *reinterpret_cast<uint4 const*>(unit);
    }
  }
}

/// The tile's end for the row: O / sum stored and O's tensor memory handed back to the MMA warp
/// (its next tile's first P V overwrites it), then the LSE (natural log; -inf for a row that saw
/// no key, whose O is 0).
template <class Plan>
__device__ __forceinline__ void fmha_sm100_epilogue(FmhaSm100SoftmaxRings<Plan>& r, FmhaSm100RowState const& st,
                                                    std::uint32_t tmem, int warp, int lane, float scale_log2,
                                                    FmhaSm100RowOutput<typename Plan::Element> out) {
  float const inverse = st.row_sum > 0.0f ? 1.0f / st.row_sum : 0.0f;
  r.pipe_o.consumer_wait(r.o_state);
  __syncwarp();
  fmha_sm100_store_o<Plan>(tmem, warp, lane, inverse, out.o);
  r.pipe_o.consumer_release(r.o_state, std::uint32_t(lane));
  r.o_state.advance();
  if (out.lse != nullptr)
    *out.lse = st.row_sum > 0.0f ? (st.row_max * scale_log2 + std::log2(st.row_sum)) * float(M_LN2) : -INFINITY;
}

/// A tile whose rows see no key at all (its mask leaves no key block): O = 0, LSE = -inf, with no
/// tensor memory involved (the MMA warp skips such tiles too).
template <class Plan>
__device__ __forceinline__ void fmha_sm100_empty_row(FmhaSm100RowOutput<typename Plan::Element> out) {
  if (out.o != nullptr)
#pragma unroll
    for (int c = 0; c < Plan::head_dim_v; c += 8) *reinterpret_cast<uint4*>(out.o + c) = uint4{0, 0, 0, 0};
  if (out.lse != nullptr) *out.lse = -INFINITY;
}

}  // namespace cute_cpp::kernels
