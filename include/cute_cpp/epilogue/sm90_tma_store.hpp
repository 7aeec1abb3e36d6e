// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The sm_90a GEMM epilogue path for one warpgroup: accumulator registers -> epilogue functor ->
// output type -> shared memory (stmatrix for 16-bit outputs) -> TMA store. The warpgroup's
// 64-row slab is written in chunks through two shared buffers, so filling one chunk overlaps the
// store of the previous one. A row-major C goes out in column chunks of the widest swizzle
// (128, 64 or 32 bytes) that divides the tile's N; a column-major C in chunks of whole 64-row
// columns, which stmatrix's transposing form writes for 16-bit outputs. An FP8 C is quantized on
// the way (block_quantize.hpp): a row-major chunk is 128 columns, one scale block, whose rows'
// largest magnitudes meet across the four threads that hold each row, and the block scales go to
// global memory beside the chunk's TMA store.
// CuTeDSL: the epilogue of the Hopper dense GEMM (StMatrix8x8x16bOp + TMA store, PipelineTmaStore;
// the C layout is utils.LayoutEnum).
#include <cute_cpp/config.hpp>
#include <cute_cpp/operand_modes.hpp>
#include <cute_cpp/epilogue/block_quantize.hpp>
#include <cute_cpp/epilogue/fusion.hpp>
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>
#include <cute_cpp/pipeline/pipeline_tma_store.hpp>
#include <cute_cpp/copy/tma_copy.hpp>

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#  include <cute_cpp/arch/fence.hpp>

#  include <ctm/common/cvt.hpp>
#  include <ctm/common/stmatrix.hpp>
#endif

namespace cute_cpp::sm90 {

namespace detail {
/// The widest of 128, 64 and 32 bytes whose element count divides n (0: none does).
template <class TC>
constexpr int epilogue_chunk_bytes(int n) {
  for (int bytes = 128; bytes >= 32; bytes /= 2)
    if (n % (bytes / int(sizeof(TC))) == 0) return bytes;
  return 0;
}
/// The whole columns of a column-major C a chunk holds: 64, 32, 16 or 8, the most that divide n.
constexpr int column_major_chunk_cols(int n) { return n % 64 == 0 ? 64 : n % 32 == 0 ? 32 : n % 16 == 0 ? 16 : 8; }
}  // namespace detail

/// One consumer warpgroup's output path: stores its 64 x N accumulator slabs through shared memory
/// and TMA (see the file comment). Barriers is the NamedBarriers run of the consumer warpgroups
/// (128 threads each); each warpgroup syncs on its own, so the two never wait on each other.
/// Static: the chunking and the shared storage. An object: one warpgroup's store state, made once
/// per kernel by each consumer warpgroup (all 128 threads).
template <class TC, int N, class Barriers, LayoutEnum LayoutC = LayoutEnum::RowMajor>
struct EpilogueTmaStore {
  static_assert(sizeof(TC) == 2 || sizeof(TC) == 4 || epilogue::is_fp8_v<TC>,
                "cute-cpp [epilogue.output-type]: the TMA-store epilogue writes FP8 (quantized by blocks), 16-bit or "
                "32-bit outputs");
  static_assert(Barriers::threads == 128);
  /// FP8 outputs are quantized by 1 x 128 blocks of a row (block_quantize.hpp).
  static constexpr bool quantized = sizeof(TC) == 1;
  static_assert(!quantized || (LayoutC == LayoutEnum::RowMajor && N % 128 == 0),
                "cute-cpp [epilogue.fp8-output]: an FP8 output is quantized by 1 x 128 blocks of a row: C row-major "
                "and the tile's N a multiple of 128 (one scale block per chunk)");
  static constexpr bool row_major = LayoutC == LayoutEnum::RowMajor;
  /// Row-major: the chunk's width in bytes (its swizzle). Column-major: 128-byte runs of a
  /// column (64 rows of 16 bits, or 32 of 32 bits: the 64-row slab is then two boxes).
  static constexpr int chunk_bytes = row_major ? detail::epilogue_chunk_bytes<TC>(N) : 128;
  /// Columns per chunk: one swizzle row of a row-major C; up to 64 whole columns of a column-major one.
  static constexpr int chunk_cols =
      row_major ? chunk_bytes / int(sizeof(TC)) : detail::column_major_chunk_cols(N);
  static_assert(chunk_bytes != 0 && N % chunk_cols == 0 && (sizeof(TC) == 4 || chunk_cols % 16 == 0),
                "cute-cpp [epilogue.tile-n]: the tile's N must be a multiple of 16 columns (16-bit outputs) "
                "or 8 columns (32-bit outputs)");
  static constexpr int chunks = N / chunk_cols;
  static constexpr int chunk_elems = chunk_cols * 64;
  /// The shared chunk: rows contiguous in 128-byte columns (column-major C) or columns contiguous
  /// in rows of one swizzle width (row-major C).
  using Chunk =
      std::conditional_t<row_major, SmemMNMajor<TC, chunk_cols, 64, chunk_bytes>, SmemMNMajor<TC, 64, chunk_cols>>;
  using Stores = PipelineTmaStore<2>;
  using Map = TensorMap<TC, Chunk>;

  /// Shared memory for one warpgroup: two chunk buffers.
  struct SharedStorage {
    alignas(1024) TC buffer[2][chunk_elems];
  };

  /// A warpgroup's slab of a 16-bit row-major C, the functor applied and converted, and where it
  /// goes: for each chunk, its stmatrix operands (two outputs a word). Held in registers, it lets
  /// the accumulators go to the next tile while the chunks are stored.
  struct ChunkWords {
    std::uint32_t words[chunk_cols / 4];
  };
  struct Packed {
    ChunkWords chunk[chunks];
    std::int64_t row0 = 0, col0 = 0;
  };

  /// Where a warpgroup's 64 x N slab goes: C's tensor map, the slab's first row and column, and
  /// C's extent (the functor sees only the outputs inside it; TMA drops the rest).
  struct Slab {
    Map const& map;
    std::int64_t row0, col0;
    std::int64_t m, n;
      /// A rank-4 map's third and fourth coordinates (an attention output's head and batch); -1: a 2-D map.
    std::int32_t outer2 = -1, outer3 = -1;
    /// An FP8 output's block scales (their row 0 is the slab's C map's row 0).
    epilogue::OutputBlockScales scales{};
  };

#if defined(__CUDACC__)
  /// The store path of warpgroup `wg` (its barrier, its buffers); `thread` is 0..127 within it.
  /// `chunks_stored`: the chunks_stored() of the warpgroup's previous store object, for a kernel
  /// that makes one per tile (so the buffers keep alternating).
  /// NOTE: it holds only what the warpgroup keeps anyway: C's map and extent come with each slab,
  /// from the kernel's parameters, so they take no registers between stores.
  __device__ __forceinline__ EpilogueTmaStore(SharedStorage& smem, int wg, int thread,
                                              std::uint32_t chunks_stored = 0)
      : smem_(smem), wg_(wg), thread_(thread), chunk_counter_(chunks_stored) {}
  /// Chunks stored so far (through this object and those it continues).
  [[nodiscard]] __device__ __forceinline__ std::uint32_t chunks_stored() const { return chunk_counter_; }

  /// Applies `op` to the slab's accumulators (atom `atom` of `acc`), converts and stores it. Acc
  /// is the accumulator's shape (sm90::WgmmaAccumulator, or a tiled MMA's).
  template <class Acc, class Op>
  __device__ __forceinline__ void store(typename Acc::FragmentC const& acc, int atom, Op const& op,
                                        Slab const& at) {
    static_assert(Acc::n == N);
    auto const slice = Acc::get_slice(thread_);
    int const warp = thread_ / 32, lane = thread_ % 32;
#pragma unroll
    for (int c = 0; c < chunks; ++c) {
      through_buffer(c, at.map, at.row0, at.col0, at.outer2, at.outer3, [&](char* const buffer) {
        if constexpr (row_major && sizeof(TC) == 2) {
          stmatrix_rows(buffer, pack_chunk<Acc>(acc, atom, op, c, at), warp, lane);
        } else {
          float v[chunk_cols / 2];  // this thread's chunk_cols / 8 n8-blocks, 4 values each
#pragma unroll
          for (int j = 0; j < chunk_cols / 2; ++j)
            v[j] = output<Acc>(acc, atom, op, slice, c * (chunk_cols / 2) + j, at);
          if constexpr (quantized) write_quantized(buffer, v, c, at, warp, lane);
          else write_values(buffer, v, warp, lane);
        }
      });
    }
  }

  /// The slab, packed (see Packed).
  template <class Acc, class Op>
  __device__ __forceinline__ Packed pack_slab(typename Acc::FragmentC const& acc, int atom, Op const& op,
                                              Slab const& at) const {
    Packed p;
#pragma unroll
    for (int c = 0; c < chunks; ++c) p.chunk[c] = pack_chunk<Acc>(acc, atom, op, c, at);
    p.row0 = at.row0, p.col0 = at.col0;
    return p;
  }
  /// Stores chunk c of a packed slab through C's `map`, as store() stores its chunks.
  __device__ __forceinline__ void store_packed_chunk(Packed const& p, int c, Map const& map) {
    int const warp = thread_ / 32, lane = thread_ % 32;
    through_buffer(c, map, p.row0, p.col0, -1, -1,
                   [&](char* const buffer) { stmatrix_rows(buffer, p.chunk[c], warp, lane); });
  }

  /// Waits until the warpgroup's last store has read its buffer (before the kernel exits).
  __device__ __forceinline__ void drain() const {
    if (thread_ == 0) Stores::producer_tail();
  }

 private:
  SharedStorage& smem_;
  int wg_, thread_;
  /// Chunks stored so far, across tiles, so the two buffers keep alternating.
  std::uint32_t chunk_counter_ = 0;

  /// One chunk through the next of the two buffers: once the store that last read it is done,
  /// `fill(buffer)` by the warpgroup, then a TMA store of it by thread 0.
  template <class Fill>
  __device__ __forceinline__ void through_buffer(int c, Map const& map, std::int64_t row0, std::int64_t col0,
                                                 std::int32_t outer2, std::int32_t outer3, Fill const& fill) {
    TC* const buffer = smem_.buffer[chunk_counter_ & 1u];
    if (thread_ == 0) Stores::producer_acquire();
    Barriers::sync(wg_);
    fill(reinterpret_cast<char*>(buffer));
    arch::fence_view_async_shared();
    Barriers::sync(wg_);
    if (thread_ == 0) {
      std::int32_t const row = std::int32_t(row0), col = std::int32_t(col0 + c * chunk_cols);
      if constexpr (row_major) {
        if (outer2 >= 0) TmaCopy::store(map, buffer, col, row, outer2, outer3);
        else TmaCopy::store(map, buffer, col, row);
      } else {
        TmaCopy::store(map, buffer, row, col);
      }
      Stores::producer_commit();
    }
    ++chunk_counter_;
  }
  /// The functor's output for this thread's accumulator jj of atom `atom`; outside M x N 0 (TMA
  /// drops it, and it adds nothing to an FP8 block's largest magnitude). The identity of a 16- or
  /// 32-bit output needs no bounds: TMA drops what lies outside, and nothing else reads it (the
  /// 64-bit coordinates and compares per value were 150-280 instructions of each fmha kernel).
  template <class Acc, class Op, class Slice>
  __device__ __forceinline__ float output(typename Acc::FragmentC const& acc, int atom, Op const& op,
                                          Slice const& slice, int jj, Slab const& at) const {
    if constexpr (std::is_same_v<Op, epilogue::Identity> && !quantized) return acc(jj, atom);
    std::int64_t const row = at.row0 + slice.row(0, jj), col = at.col0 + slice.col(jj);
    float const x = acc(jj, atom);
    return (row < at.m && col < at.n) ? op(x, row, col) : 0.0f;
  }
  /// Chunk c of a 16-bit row-major slab as stmatrix operands: output pairs, in accumulator order.
  template <class Acc, class Op>
  __device__ __forceinline__ ChunkWords pack_chunk(typename Acc::FragmentC const& acc, int atom, Op const& op,
                                                   int c, Slab const& at) const {
    static_assert(row_major && sizeof(TC) == 2, "cute-cpp [epilogue.packed]: packed slabs are 16-bit row-major");
    auto const slice = Acc::get_slice(thread_);
    ChunkWords chunk;
#pragma unroll
    for (int w = 0; w < chunk_cols / 4; ++w) {
      int const jj = c * (chunk_cols / 2) + 2 * w;
      chunk.words[w] = pack(output<Acc>(acc, atom, op, slice, jj, at),
                            output<Acc>(acc, atom, op, slice, jj + 1, at));
    }
    return chunk;
  }
  /// Quantizes chunk c of an FP8 slab (one 1 x 128 block of each of its 64 rows) into `buffer`
  /// and writes the rows' scales. v[4b + 2h + e] is row 16 warp + lane / 4 + 8h, column
  /// 8b + 2 (lane % 4) + e of the chunk: the four lanes of a quad hold a row between them.
  static __device__ __forceinline__ void write_quantized(char* buffer, float const (&v)[chunk_cols / 2], int c,
                                                         Slab const& at, int warp, int lane) {
    constexpr float max_finite = epilogue::fp8_max_finite<TC>;
    float amax[2] = {0.0f, 0.0f};
#pragma unroll
    for (int j = 0; j < chunk_cols / 2; ++j) amax[(j / 2) % 2] = fmaxf(amax[(j / 2) % 2], fabsf(v[j]));
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      amax[h] = fmaxf(amax[h], __shfl_xor_sync(0xffffffffu, amax[h], 1));
      amax[h] = fmaxf(amax[h], __shfl_xor_sync(0xffffffffu, amax[h], 2));
    }
    float const inverse[2] = {epilogue::fp8_block_inverse_scale(amax[0], max_finite),
                              epilogue::fp8_block_inverse_scale(amax[1], max_finite)};
#pragma unroll
    for (int b = 0; b < chunk_cols / 8; ++b) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float const lo = v[4 * b + 2 * h] * inverse[h], hi = v[4 * b + 2 * h + 1] * inverse[h];
        std::uint16_t const pair = std::is_same_v<TC, __nv_fp8_e4m3> ? ctm::cvt_rn_satfinite_e4m3x2_f32(hi, lo)
                                                                      : ctm::cvt_rn_satfinite_e5m2x2_f32(hi, lo);
        *reinterpret_cast<std::uint16_t*>(buffer + offset_bytes(b * 8 + (lane % 4) * 2, warp * 16 + lane / 4 + h * 8)) =
            pair;
      }
    }
    if (lane % 4 == 0) {
      std::int64_t const block = (at.col0 + c * chunk_cols) / 128;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        std::int64_t const row = at.row0 + warp * 16 + lane / 4 + h * 8;
        if (row < at.m)
          at.scales.data[row * at.scales.row_stride + block * at.scales.block_stride] =
              epilogue::fp8_block_scale(amax[h], max_finite);
      }
    }
  }
  /// Writes a chunk's outputs (not 16-bit row-major: those go through pack_chunk) into `buffer`.
  static __device__ __forceinline__ void write_values(char* buffer, float const (&v)[chunk_cols / 2], int warp,
                                                      int lane) {
    if constexpr (!row_major && sizeof(TC) == 4) {
      // Column c of the chunk is 64 rows: two 128-byte lines, one per box of 32 rows, each
      // swizzled by its column.
#pragma unroll
      for (int b = 0; b < chunk_cols / 8; ++b) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          int const r = warp * 16 + lane / 4 + (e / 2) * 8, col = b * 8 + (lane % 4) * 2 + e % 2;
          *reinterpret_cast<float*>(buffer + offset_bytes(r, col)) = v[4 * b + e];
        }
      }
    } else if constexpr (!row_major) {
      // stmatrix x4 .trans writes two n8-blocks of both 8-row halves of a warp's 16 rows as
      // columns: lane i of matrix q gives the address of column 8 (b + q / 2) + i, whose rows
      // warp * 16 + (q % 2) * 8 .. + 7 are one 16-byte unit of that column's 128 bytes.
      int const q = lane / 8;
#pragma unroll
      for (int b = 0; b < chunk_cols / 8; b += 2) {
        int const col = (b + (q >> 1)) * 8 + lane % 8;
        ctm::stmatrix_x4_trans(buffer + offset_bytes(warp * 16 + (q & 1) * 8, col),
                               pack(v[4 * b + 0], v[4 * b + 1]), pack(v[4 * b + 2], v[4 * b + 3]),
                               pack(v[4 * b + 4], v[4 * b + 5]), pack(v[4 * b + 6], v[4 * b + 7]));
      }
    } else {
#pragma unroll
      for (int b = 0; b < chunk_cols / 8; ++b) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
          int const r = warp * 16 + lane / 4 + half * 8;
          int const col = b * 8 + (lane % 4) * 2;
          *reinterpret_cast<float2*>(buffer + offset_bytes(col, r)) =
              make_float2(v[4 * b + 2 * half], v[4 * b + 2 * half + 1]);
        }
      }
    }
  }
  /// stmatrix x4 writes two n8-blocks (16 columns) of both 8-row halves of a warp's 16 rows of a
  /// row-major chunk.
  static __device__ __forceinline__ void stmatrix_rows(char* buffer, ChunkWords const& chunk, int warp, int lane) {
    int const q = lane / 8;
    int const r = warp * 16 + (q & 1) * 8 + lane % 8;
    std::uint32_t const* const w = chunk.words;
#pragma unroll
    for (int b = 0; b < chunk_cols / 8; b += 2)
      ctm::stmatrix_x4(buffer + offset_bytes(b * 8 + (q >> 1) * 8, r), w[2 * b], w[2 * b + 1], w[2 * b + 2],
                       w[2 * b + 3]);
  }
  /// The byte offset in a chunk of its element (inner, outer): (column, row) of a row-major C,
  /// (row, column) of a column-major one; the chunk's layout type carries the swizzle.
  static __device__ __forceinline__ int offset_bytes(int inner, int outer) {
    return int(Chunk{}(inner, outer)) * int(sizeof(TC));
  }
  static __device__ __forceinline__ std::uint32_t pack(float lo, float hi) {
    if constexpr (std::is_same_v<TC, __half>) return ctm::cvt_rn_f16x2_f32(hi, lo);
    else return ctm::cvt_rn_bf16x2_f32(hi, lo);
  }
#endif
};

}  // namespace cute_cpp::sm90
