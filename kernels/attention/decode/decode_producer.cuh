// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Decode attention's producer warps (decode_sm90.cuh), K's and V's: per key block, TMA boxes of
// the plan's box_rows keys from the block's pages (a box never straddles one), each box's page
// found in the split's page-table window that the warp holds in its registers (PageWindow).
#include <cute_cpp/arch/griddepcontrol.hpp>                   // griddepcontrol_wait
#include <cute_cpp/copy/tma_copy.hpp>                         // TmaCopy
#include <cute_cpp/kernels/attention/decode/decode.hpp>       // DecodeParams
#include <cute_cpp/kernels/attention/decode/decode_work.cuh>  // DecodeWork
#include <cute_cpp/pipeline/pipeline_state.hpp>               // make_pipeline_state

#include <cstdint>

namespace cute_cpp::kernels {

/// A split's page-table entries in its producer warp's registers: each lane holds one entry of the
/// 32-slot window in use and one of the next, loaded a window ahead so that no block waits on the
/// table; a box's page is one shuffle away. Windows are walked from the split's first slot up, as
/// the blocks are. (Two shared windows filled by cp.async, read with one shared load per box, cost
/// a load's latency per box: pages of 16 keys streamed at half a device copy's rate.)
struct PageWindow {
  std::int32_t const* row = nullptr;  ///< the sequence's table row
  std::int32_t first = 0, slots = 0;  ///< the split's first slot; the row's length
  std::int32_t window = 0;            ///< the window in `current`: slots first + 32 window ..
  std::int32_t lane = 0;
  std::int32_t current = 0, next = 0;

  [[nodiscard]] __device__ __forceinline__ std::int32_t load(std::int32_t w) const {
    std::int32_t const slot = first + 32 * w + lane;
    return slot < slots ? __ldg(row + slot) : 0;
  }
  /// Starts the first two windows' loads.
  __device__ __forceinline__ PageWindow(std::int32_t const* table_row, std::int32_t first_slot,
                                        std::int32_t row_slots, std::uint32_t lane_index)
      : row(table_row), first(first_slot), slots(row_slots), lane(std::int32_t(lane_index)) {
    if (row == nullptr) return;
    current = load(0);
    next = load(1);
  }
  /// The page of this lane's `slot`, in the window of `block_slot` (the block's first slot, the
  /// same in every lane, which all call this; a block's slots lie in one window).
  __device__ __forceinline__ std::int32_t page(std::int32_t block_slot, std::int32_t slot) {
    std::int32_t const w = (block_slot - first) / 32;
    if (w != window) {
      current = w == window + 1 ? next : load(w);
      next = load(w + 1);
      window = w;
    }
    return __shfl_sync(~0u, current, (slot - first) % 32);
  }
};

/// The page-table slot of `w`'s split's first key.
template <int BlockN>
__device__ __forceinline__ std::int32_t decode_first_slot(DecodeParams const& p, DecodeWork const& w) {
  return std::int32_t(p.page_div.divide(std::uint32_t(w.n_begin * BlockN)));
}

/// The page-table window of `w`'s split (its first slot's), started loading by `lane`.
template <int BlockN>
__device__ __forceinline__ PageWindow decode_page_window(DecodeParams const& p, DecodeWork const& w,
                                                         std::uint32_t lane) {
  if (!p.paged()) return PageWindow(nullptr, 0, 0, lane);
  return PageWindow(p.block_table + w.batch * p.max_pages_per_seq, decode_first_slot<BlockN>(p, w),
                    p.max_pages_per_seq, lane);
}

/// A producer warp: per key block, `Chunks` box_cols-column chunks of the block's keys (K's
/// or V's) into its pipeline's stage, as box_rows-key boxes. Lane j finds box j (its page by one
/// shuffle of the table's window, PageWindow) and issues its loads once lane 0 has acquired the
/// stage. Boxes past the sequence's end read its last box again (their keys are masked and their V
/// rows zeroed), so a table entry past the sequence is never used.
template <class Plan, class Pipeline, int Chunks>
__device__ __forceinline__ void decode_producer(typename Pipeline::SharedStorage* barriers,
                                                typename Plan::KvElement* stage0, int stage_elems,
                                                typename Plan::MapKV const& map, DecodeParams const& p,
                                                DecodeWork const& w, PageWindow pages) {
  constexpr int BN = Plan::block_n, R = Plan::box_rows, BC = Plan::box_cols, Boxes = Plan::boxes_per_tile;
  static_assert(Boxes <= 32, "cute-cpp [attention.decode-tile]: a block's boxes are one a lane");
  Pipeline const pipe{barriers};
  auto state = make_pipeline_state<Plan::stages>(PipelineUserType::Producer);
  auto const lane = std::uint32_t(threadIdx.x % 32);
  std::int32_t const box = std::int32_t(lane) % Boxes;  // lanes past the boxes shadow one
  // A block's keys lie in one window: 32 slots hold 512 keys or more, a multiple of any block_n.
  static_assert(32 * 16 % BN == 0, "cute-cpp [attention.decode-tile]: a key block within one page-table window");
  // `pages` was started for a guess at the split's keys: loaded again where it was wrong.
  if (p.paged() && decode_first_slot<BN>(p, w) != pages.first)
    pages = decode_page_window<BN>(p, w, lane);
  // Programmatic dependent launch: the table's first windows are on their way; the keys are the
  // predecessors' writes (the append).
  arch::griddepcontrol_wait();
  std::int32_t const last_key = w.seq_k - 1;
  for (std::int32_t n = w.n_begin; n < w.n_end; ++n) {
    // Where this lane's box lies: (row, outer) of the cache's (dim, row, head, outer) map.
    std::int32_t row = n * BN + box * R, outer = w.batch;
    if (p.paged()) {
      std::uint32_t slot = 0, in_page = 0;
      p.page_div.divmod(std::uint32_t(min(row, last_key)), slot, in_page);
      std::int32_t const page =
          pages.page(std::int32_t(p.page_div.divide(std::uint32_t(n * BN))), std::int32_t(slot));
#if !defined(NDEBUG)
      if (std::int32_t(lane) < Boxes && (page < 0 || page >= p.num_pages)) {
        printf("cute-cpp [attention.block-table]: sequence %d: page %d of %d at slot %u\n", w.batch, page,
               p.num_pages, slot);
        __trap();
      }
#endif
      row = std::int32_t(in_page) / R * R;
      outer = max(0, min(page, p.num_pages - 1));
    }
    if (lane == 0) {
      pipe.producer_acquire(state);
      pipe.producer_expect_tx(state);
    }
    __syncwarp();
    if (std::int32_t(lane) < Boxes) {
#pragma unroll
      for (int c = 0; c < Chunks; ++c)
        TmaCopy::load(map, stage0 + state.index() * stage_elems + (c * BN + box * R) * BC,
                      pipe.producer_get_barrier(state), BC * c, row, w.kv_head, outer);
    }
    state.advance();
    __syncwarp();
  }
}
}  // namespace cute_cpp::kernels
