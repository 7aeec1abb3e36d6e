// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// Which tile and cut a shape takes: GemmTile (the tiles the heuristic chooses among) and GemmChoice
// (a tile and its cut), their names in a tuning cache (gemm_tile_name, gemm_choice_name and the
// parse functions), the swapped tiles' shapes (swapped_tile_shapes: what their plans are made
// from), choose_from_table (the nearest measured shapes of a tile table,
// gemm_tile_table.hpp), choose_gemm_tile (the heuristic where no table applies) and the swapped
// tiles' rules for a linear layer (covering_swapped_tile, small_weights_swapped_tile,
// small_weights_paired_tile, paired_swapped_tile, small_problem_swapped_tile, wide_token_tile).
// Host arithmetic only; plans.hpp maps a GemmTile to its plan and choose_gemm_plan puts the rules
// together.
#include <cute_cpp/kernels/gemm/gemm_decomposition.hpp>  // Decomposition

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace cute_cpp::kernels {

/// The tiles the heuristic chooses among: 128 rows, N columns, in 2-CTA clusters along M (c2),
/// along N (cn2) or alone (c1); n256m64: 64 rows by 256, each consumer warpgroup its own tile
/// (PingPong), in pairs along M; n256cn2: 128 x 256 in pairs along N sharing A, so that M pads to
/// 128 rather than the pair's 256; swapN: A and B swapped (C^T = B^T A^T), 128 columns of C by N
/// rows, alone (swap80 to swap160: C's rows in one tile where 128-row tiles would be mostly empty, as
/// cuBLAS's kernels for such shapes hold them; swap96cn2 to swap160cn2 in pairs along C's rows
/// sharing the weights; swap128c2 to swap256c2, 128-256 of C's rows, in pairs along C's columns
/// sharing the rows' tile, as cuBLAS's 128 x 152-272 tiles for a few hundred rows); swap96c2cn2 to
/// swap224c2cn2: 128 columns of C by 96-224 rows in 2 x 2 clusters, each CTA sharing the weights'
/// tile with its neighbour along C's rows and the rows' tile with its neighbour along C's columns
/// (a quarter of L2's reads of a pair, as cuBLAS's clusters of 4 and 8); swap144x256cn2
/// and swap160x256cn2: 256 columns of C by 144 or 160 rows, in pairs along C's rows sharing the
/// weights' tile, swap144x256c2 and swap160x256c2 in pairs along C's columns sharing the rows' tile
/// (cuBLAS's 256 x 136-160 tiles for a few hundred rows of a wide projection); simt: the SIMT GEMM
/// (SimtGemmPlan).
enum class GemmTile {
  n256, n128, n64, n256c1, n128c1, n112cn2, n64c1, n256m64, n256cn2, swap16, swap32, swap64,
  swap80, swap96, swap112, swap128, swap144, swap160, swap96cn2, swap112cn2, swap128cn2, swap144cn2, swap160cn2,
  swap128c2, swap144c2, swap160c2, swap176c2, swap192c2, swap208c2, swap224c2, swap240c2, swap256c2,
  swap144x256cn2, swap160x256cn2, swap144x256c2, swap160x256c2, swap96c2cn2, swap128c2cn2, swap160c2cn2,
  swap192c2cn2, swap224c2cn2, simt
};

/// Every GemmTile, with the name a tuning cache stores it under.
inline constexpr std::pair<GemmTile, std::string_view> gemm_tile_names[] = {
    {GemmTile::n256, "n256"},     {GemmTile::n128, "n128"},     {GemmTile::n64, "n64"},
    {GemmTile::n256c1, "n256c1"}, {GemmTile::n128c1, "n128c1"}, {GemmTile::n112cn2, "n112cn2"},
    {GemmTile::n64c1, "n64c1"},   {GemmTile::n256m64, "n256m64"}, {GemmTile::n256cn2, "n256cn2"},
    {GemmTile::swap16, "swap16"},   {GemmTile::swap32, "swap32"},
    {GemmTile::swap64, "swap64"},   {GemmTile::swap80, "swap80"},   {GemmTile::swap96, "swap96"},
    {GemmTile::swap112, "swap112"}, {GemmTile::swap128, "swap128"}, {GemmTile::swap144, "swap144"},
    {GemmTile::swap160, "swap160"}, {GemmTile::swap96cn2, "swap96cn2"}, {GemmTile::swap112cn2, "swap112cn2"},
    {GemmTile::swap128cn2, "swap128cn2"}, {GemmTile::swap144cn2, "swap144cn2"}, {GemmTile::swap160cn2, "swap160cn2"},
    {GemmTile::swap128c2, "swap128c2"}, {GemmTile::swap144c2, "swap144c2"}, {GemmTile::swap160c2, "swap160c2"},
    {GemmTile::swap176c2, "swap176c2"}, {GemmTile::swap192c2, "swap192c2"}, {GemmTile::swap208c2, "swap208c2"},
    {GemmTile::swap224c2, "swap224c2"}, {GemmTile::swap240c2, "swap240c2"}, {GemmTile::swap256c2, "swap256c2"},
    {GemmTile::swap144x256cn2, "swap144x256cn2"}, {GemmTile::swap160x256cn2, "swap160x256cn2"},
    {GemmTile::swap144x256c2, "swap144x256c2"}, {GemmTile::swap160x256c2, "swap160x256c2"},
    {GemmTile::swap96c2cn2, "swap96c2cn2"}, {GemmTile::swap128c2cn2, "swap128c2cn2"},
    {GemmTile::swap160c2cn2, "swap160c2cn2"}, {GemmTile::swap192c2cn2, "swap192c2cn2"},
    {GemmTile::swap224c2cn2, "swap224c2cn2"}, {GemmTile::simt, "simt"}};

/// A swapped tile's shape: the rows and columns of C it holds (its N and M sides), its CTAs'
/// cluster along C's rows (sharing the weights' tile: the cn2 pairs) and along C's columns (sharing
/// the rows' tile: the c2 pairs). rows 0: not a swapped tile.
struct SwappedShape {
  int rows = 0, cols = 128, along_rows = 1, along_cols = 1;
};

/// Every swapped tile's shape, in GemmTile's order: what the queries below read and what
/// plans.hpp makes each swapped tile's plan from (TileFamily::swapped_plan), so that a new swapped
/// tile is a line here, its enumerator and its name.
inline constexpr std::pair<GemmTile, SwappedShape> swapped_tile_shapes[] = {
    {GemmTile::swap16, {16}},
    {GemmTile::swap32, {32}},
    {GemmTile::swap64, {64}},
    {GemmTile::swap80, {80}},
    {GemmTile::swap96, {96}},
    {GemmTile::swap112, {112}},
    {GemmTile::swap128, {128}},
    {GemmTile::swap144, {144}},
    {GemmTile::swap160, {160}},
    {GemmTile::swap96cn2, {96, 128, 2}},
    {GemmTile::swap112cn2, {112, 128, 2}},
    {GemmTile::swap128cn2, {128, 128, 2}},
    {GemmTile::swap144cn2, {144, 128, 2}},
    {GemmTile::swap160cn2, {160, 128, 2}},
    {GemmTile::swap128c2, {128, 128, 1, 2}},
    {GemmTile::swap144c2, {144, 128, 1, 2}},
    {GemmTile::swap160c2, {160, 128, 1, 2}},
    {GemmTile::swap176c2, {176, 128, 1, 2}},
    {GemmTile::swap192c2, {192, 128, 1, 2}},
    {GemmTile::swap208c2, {208, 128, 1, 2}},
    {GemmTile::swap224c2, {224, 128, 1, 2}},
    {GemmTile::swap240c2, {240, 128, 1, 2}},
    {GemmTile::swap256c2, {256, 128, 1, 2}},
    {GemmTile::swap144x256cn2, {144, 256, 2}},
    {GemmTile::swap160x256cn2, {160, 256, 2}},
    {GemmTile::swap144x256c2, {144, 256, 1, 2}},
    {GemmTile::swap160x256c2, {160, 256, 1, 2}},
    {GemmTile::swap96c2cn2, {96, 128, 2, 2}},
    {GemmTile::swap128c2cn2, {128, 128, 2, 2}},
    {GemmTile::swap160c2cn2, {160, 128, 2, 2}},
    {GemmTile::swap192c2cn2, {192, 128, 2, 2}},
    {GemmTile::swap224c2cn2, {224, 128, 2, 2}}};

/// `tile`'s shape; rows 0 for a tile that is not swapped.
constexpr SwappedShape swapped_shape(GemmTile tile) {
  for (auto const& [t, shape] : swapped_tile_shapes)
    if (t == tile) return shape;
  return {};
}

/// The rows of C a swapped tile holds (its N side), 0 for a tile that is not swapped.
constexpr std::int64_t swapped_rows(GemmTile tile) { return swapped_shape(tile).rows; }

/// The columns of C a swapped tile holds (the weights' rows: its M side), 0 for a tile that is not swapped.
constexpr std::int64_t swapped_cols(GemmTile tile) {
  SwappedShape const s = swapped_shape(tile);
  return s.rows > 0 ? s.cols : 0;
}

/// Whether a swapped tile runs in 2 x 2 clusters (swap96c2cn2 to swap224c2cn2).
constexpr bool swapped_in_quads(GemmTile tile) {
  SwappedShape const s = swapped_shape(tile);
  return s.along_rows == 2 && s.along_cols == 2;
}

/// Whether a swapped tile's CTAs pair up along C's rows, sharing the weights' tile (the cn2 pairs
/// and the 2 x 2 clusters); the c2 pairs pair up along C's columns, sharing the rows' tile.
constexpr bool swapped_pairs_along_rows(GemmTile tile) { return swapped_shape(tile).along_rows == 2; }

/// The tile that runs `tile`'s rows with stream-K's fixup: the 256-column swapped tiles' 144-160
/// accumulators a thread leave no registers for it (GemmPlan::stream_k), so a call that asks for
/// stream-K takes the 128-column tile of the same rows and pairing; every other tile has it.
constexpr GemmTile stream_k_tile(GemmTile tile) {
  SwappedShape const s = swapped_shape(tile);
  if (s.cols != 256) return tile;
  for (auto const& [t, other] : swapped_tile_shapes)
    if (other.rows == s.rows && other.cols == 128 && other.along_rows == s.along_rows &&
        other.along_cols == s.along_cols)
      return t;
  return tile;
}

/// Whether `tile` is one of the wide swapped tiles (swap80 to swap160, swap96cn2 to swap160cn2,
/// swap128c2 to swap256c2, swap144x256cn2 to swap160x256c2, swap96c2cn2 to swap224c2cn2), built for
/// K-major A and B only.
constexpr bool wide_swapped(GemmTile tile) { return swapped_rows(tile) > 64; }

constexpr std::string_view gemm_tile_name(GemmTile tile) {
  for (auto const& [t, name] : gemm_tile_names)
    if (t == tile) return name;
  return "";
}

/// The tile a name stands for; none for a name no tile has (a cache from another build).
constexpr std::optional<GemmTile> parse_gemm_tile(std::string_view name) {
  for (auto const& [t, n] : gemm_tile_names)
    if (n == name) return t;
  return std::nullopt;
}

/// A tile and how its work is cut: what the tile table chooses for a shape.
struct GemmChoice {
  GemmTile tile = GemmTile::n256;
  Decomposition decomposition = Decomposition::Heuristic;
  int k_splits = 0;
};

/// A choice's name in a tuning cache: the tile's, then " whole", " split N" or " stream-K" for a
/// cut other than the heuristic's ("n128 split 4", "swap16").
inline std::string gemm_choice_name(GemmChoice const& c) {
  std::string name(gemm_tile_name(c.tile));
  switch (c.decomposition) {
    case Decomposition::Heuristic: break;
    case Decomposition::DataParallel: name += " whole"; break;
    case Decomposition::SplitK: name += " split " + std::to_string(c.k_splits); break;
    case Decomposition::StreamK: name += " stream-K"; break;
  }
  return name;
}

/// The choice a name stands for; none for a name no choice has (a cache from another build).
inline std::optional<GemmChoice> parse_gemm_choice(std::string_view name) {
  std::size_t const space = name.find(' ');
  std::optional<GemmTile> const tile = parse_gemm_tile(name.substr(0, space));
  if (!tile) return std::nullopt;
  if (space == std::string_view::npos) return GemmChoice{*tile};
  std::string_view const cut = name.substr(space + 1);
  if (cut == "whole") return GemmChoice{*tile, Decomposition::DataParallel};
  if (cut == "stream-K") return GemmChoice{*tile, Decomposition::StreamK};
  if (cut.starts_with("split ") && cut.size() > 6) {
    int splits = 0;
    for (char const ch : cut.substr(6)) {
      if (ch < '0' || ch > '9' || splits > 100000) return std::nullopt;
      splits = splits * 10 + (ch - '0');
    }
    if (splits >= 2) return GemmChoice{*tile, Decomposition::SplitK, splits};
  }
  return std::nullopt;
}

/// One measured shape of a tile table (gemm_tile_table.hpp): log2 of M, N and K, and the mask of
/// the table's choices that ran within a few percent of its fastest.
struct GemmTableShape {
  float log2_m = 0, log2_n = 0, log2_k = 0;
  std::uint64_t good = 0;
};

/// A shape off a tile table and the index of the choice its fitting tool predicts (-1: none).
struct GemmTableProbe {
  std::int64_t m = 0, n = 0, k = 0;
  int choice = -1;
};

/// The choice good on the most of the `neighbours` measured shapes nearest m x n x k (distance in
/// log2 of M, N and K), each counted by 1 / (distance + 0.5), the nearer first among equals, the
/// earlier choice among equal counts (tools/fit_gemm_tiles.py's predict, which fits the table),
/// among the choices whose bit is set in `allowed`; none where no allowed choice was good on any
/// of the nearest shapes.
inline std::optional<GemmChoice> choose_from_table(std::int64_t m, std::int64_t n, std::int64_t k,
                                                   std::span<GemmTableShape const> table,
                                                   std::span<GemmChoice const> choices, int neighbours,
                                                   std::uint64_t allowed = ~std::uint64_t{0}) {
  double const here[3] = {std::log2(double(m)), std::log2(double(n)), std::log2(double(k))};
  constexpr int most = 8;
  neighbours = std::min(neighbours, most);
  struct Near {
    double distance = 0;
    std::size_t shape = 0;
  };
  Near near[most];
  int found = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    double const dm = here[0] - table[i].log2_m, dn = here[1] - table[i].log2_n, dk = here[2] - table[i].log2_k;
    Near candidate{std::sqrt(dm * dm + dn * dn + dk * dk), i};
    // Insertion into the sorted `near`, keeping the first `neighbours`.
    int at = found < neighbours ? found++ : neighbours;
    if (at == neighbours && candidate.distance >= near[neighbours - 1].distance) continue;
    if (at == neighbours) at = neighbours - 1;
    while (at > 0 && near[at - 1].distance > candidate.distance) {
      near[at] = near[at - 1];
      --at;
    }
    near[at] = candidate;
  }
  double votes[64] = {};
  for (int r = 0; r < found; ++r) {
    double const weight = 1.0 / (near[r].distance + 0.5) + 1e-6 * double(neighbours - r);
    for (std::size_t c = 0; c < choices.size() && c < 64; ++c)
      if (table[near[r].shape].good >> c & 1u) votes[c] += weight;
  }
  std::size_t best = 64;
  for (std::size_t c = 0; c < choices.size() && c < 64; ++c)
    if ((allowed >> c & 1u) && votes[c] > 0 && (best == 64 || votes[c] > votes[best])) best = c;
  if (best == 64) return std::nullopt;
  return choices[best];
}

/// The tile for an m x n x k problem on `ctas` resident CTAs, each with the heuristic's cut
/// (choose_decomposition: split-K within one wave, stream-K for a partial last wave). The rules,
/// checked on the H100's model-shape probe at cef1614 (145 shapes of 3 to 1060 rows, every tile
/// under every cut; README: measurements) where they ran at 0.846 of cuBLASLt's geomean against
/// 0.857 for the best tile of each shape, 0.803 for the rules before and 0.755 for the tile table:
/// - at most 64 rows: A and B swapped, so that N fills wgmma's 64-row side and M (rounded up to
///   16, 32 or 64) its N side: a 128-row tile would multiply mostly zeros;
/// - at most 64 columns (and more rows): the mirror image. Up to 1536 rows and 8192 of K, swapped
///   tiles of 32 rows of M give more CTAs than 128-row ones; beyond, 128 x 64 tiles alone, with
///   split-K (the sweep: 0.33-0.55x of cuBLAS in 128 x 256 tiles, 0.72-1.3x so);
/// - one tile row (at most 128 rows): no cluster along M (its second CTA would have no rows).
///   At most 128 columns: swapped 16-row tiles. Else a width whose tiles fill at least 90% of one
///   wave if there is one (14336 columns: 128 x 112 tiles in pairs along N that share A), else the
///   widest tile alone that still gives every fifth CTA a tile, since there the A tile is re-read
///   for every tile, so wide tiles pay, and split-K fills the GPU (4096 columns: 128 x 128, 0.76-0.91
///   of cuBLAS where 128 x 112 pairs ran at 0.71-0.87);
/// - more rows: 128 x 256 tiles in pairs along M that share B, whatever the waves: split-K fills a
///   partial one. Within 7% of each probe shape's best tile but for 5 of 81 (128 x 128 pairs
///   won by 11-29% at 154-217 rows of 2560-4096 columns and K 4096, lost at K 14336); on the 27
///   where the fullest-waves rule before took 128 x 128 or 128 x 64 tiles, it ran at 0.42-0.94 of
///   cuBLAS (geomean 0.63) and these at 0.59-1.16 (0.79).
constexpr GemmTile choose_gemm_tile(std::int64_t m, std::int64_t n, std::int64_t k, int ctas) {
  if (m <= 64) return m <= 16 ? GemmTile::swap16 : m <= 32 ? GemmTile::swap32 : GemmTile::swap64;
  if (n <= 64) return m <= 1536 && k <= 8192 ? GemmTile::swap32 : GemmTile::n64c1;
  if (m > 128) return GemmTile::n256;
  if (n <= 128) return GemmTile::swap16;
  struct Width {
    GemmTile tile;
    std::int64_t width;
  };
  for (Width const w : {Width{GemmTile::n256c1, 256}, Width{GemmTile::n128c1, 128}, Width{GemmTile::n112cn2, 112}}) {
    std::int64_t const tiles = (n + w.width - 1) / w.width;
    if (tiles <= ctas && tiles * 10 >= std::int64_t(ctas) * 9) return w.tile;
  }
  if ((n + 255) / 256 * 5 >= ctas) return GemmTile::n256c1;
  if ((n + 127) / 128 * 5 >= ctas) return GemmTile::n128c1;
  return GemmTile::n64c1;
}

/// The first of `tiles` (narrowest first) whose `count` tiles along C's rows hold m rows; none
/// where none does.
constexpr std::optional<GemmTile> narrowest_holding(std::initializer_list<GemmTile> tiles, std::int64_t m,
                                                    std::int64_t count) {
  for (GemmTile const t : tiles)
    if (count * swapped_rows(t) >= m) return t;
  return std::nullopt;
}

/// Weights of at least this many elements (64 MiB in bf16, more than the H100's and H200's 50 MiB
/// of L2) make a problem past 128 rows one of streaming the weights: covering_swapped_tile pairs
/// its tiles along C's columns there, whatever the columns.
inline constexpr std::int64_t weights_past_l2 = std::int64_t(1) << 25;

/// Weights of at least this many columns (40 tiles of 128) hold 20 pairs of swap144c2 / swap160c2
/// along C's columns: covering_swapped_tile pairs its tiles there at 129-160 rows.
inline constexpr std::int64_t covering_pairs_columns = 5120;

/// The wide swapped tile that holds all m rows of C where 128-row tiles would multiply at least
/// 1.6 m rows (65-80 and 129-160 rows), of more than 128 columns; none elsewhere. There one tile of
/// C's rows reads each weight once and pads at most 15 rows, where the 128-row tiles pad 48-63 (or
/// 96-127 and read the weights twice). On the H100's probe (160 shapes; records in
/// bench/results/h100-721b0a1, kernels/gemm/README.md), 70 rows: 0.85-0.98 of cuBLASLt in swap80
/// against 0.74-0.92 before, one shape of eight equal; 138 and 154 rows: 0.70-0.91 in swap144 /
/// swap160 against 0.57-0.91, two shapes of sixteen 1-3% slower; on 70 unseen shapes at 66-156 rows
/// 0.825 against 0.733. Between, 128-row tiles pad less and the probe had no tile ahead of them (98
/// and 123 rows: swap112 / swap128 within -6% to +3%). At 129-160 rows of covering_pairs_columns
/// or more, or of weights_past_l2, the tile in pairs along C's columns that share the rows' tile
/// (swap144c2, swap160c2): on 88 shapes of 129-160 rows (22 projections, README) they ran 1-10%
/// faster than swap144 / swap160 alone and swap176c2 at 5120 columns or more and past L2, 5-10%
/// slower at 2048 columns (few pairs to fill the SMs).
constexpr std::optional<GemmTile> covering_swapped_tile(std::int64_t m, std::int64_t n, std::int64_t k) {
  std::int64_t const padded = (m + 127) / 128 * 128;
  if (m <= 64 || n <= 128 || padded * 5 < m * 8) return std::nullopt;
  if (m > 128 && (n >= covering_pairs_columns || n * k >= weights_past_l2))
    return m <= 144 ? GemmTile::swap144c2 : GemmTile::swap160c2;
  return narrowest_holding({GemmTile::swap80, GemmTile::swap96, GemmTile::swap112, GemmTile::swap128,
                            GemmTile::swap144, GemmTile::swap160},
                           m, 1);
}

/// At 65-128 rows where choose_gemm_tile takes one row of 128 x 256 tiles alone (n256c1: weights
/// wide enough to fill the SMs with it), the PingPong plan's 64 x 256 tiles in pairs along M that
/// share the weights' tile (n256m64): half the weights' L2 reads a tile row, and 64-row steps pad
/// 81-128 rows less. None elsewhere. On the H100's candidate sweeps (bench/results: the probes of
/// 3c3a076, 695a582 and 36c5bb4, the unseen ones of seeds 20261206-20261208), at 85-123 rows of
/// 8192-151936 columns it ran faster than n256c1 on 32 of 33 shapes, by 4.9% in the geomean (by
/// 20% at most; 104 x 24576 x 4096: -3%); where choose_gemm_tile takes narrower tiles it was even
/// or behind.
constexpr std::optional<GemmTile> pingpong_wide_tile(std::int64_t m, std::int64_t n, std::int64_t k, int sms) {
  if (m <= 64 || m > 128 || choose_gemm_tile(m, n, k, sms) != GemmTile::n256c1) return std::nullopt;
  return GemmTile::n256m64;
}

/// The loads of m x n x k in tiles of `rows` x `cols` of C on `sms` SMs, under the best of 1-4 K
/// splits: waves of tiles times the operand rows a tile loads per K block times its K blocks, and
/// with splits the fp32 partial tile each writes and the reduction reads back (rows x cols x 8
/// bytes, rows x cols / 16 in units of a 128-byte row of a K block). At a few hundred rows a linear
/// layer is bound by these loads, so this weighs a narrower tile's extra waves against a wider one's
/// padding.
constexpr std::int64_t tile_load_cost(std::int64_t m, std::int64_t n, std::int64_t k, std::int64_t rows,
                                      std::int64_t cols, int sms) {
  std::int64_t const k_blocks = (k + 63) / 64;
  std::int64_t best = -1;
  for (std::int64_t splits = 1; splits <= 4 && (splits == 1 || k_blocks >= 2 * splits); ++splits) {
    std::int64_t const ctas = (m + rows - 1) / rows * ((n + cols - 1) / cols) * splits;
    std::int64_t const partials = splits > 1 ? rows * cols / 16 : 0;
    std::int64_t const cost = (ctas + sms - 1) / sms * ((rows + cols) * ((k_blocks + splits - 1) / splits) + partials);
    if (best < 0 || cost < best) best = cost;
  }
  return best;
}

/// Weights of at most this many elements (8 MiB in bf16, a sixth of the H100's and H200's L2):
/// where covering_swapped_tile takes one tile alone (65-160 rows) or at 161-320 rows,
/// small_weights_swapped_tile and small_weights_paired_tile weigh narrower tiles, whose extra tiles
/// of C's rows read the weights again from L2. At 65-160 rows 2^22, 2^23 and 2^24 judged alike on
/// the H100's candidate sweeps (0.856-0.857 of cuBLASLt over 449 shapes); at 161-320 rows 2^22
/// changed 65 shapes by 0.96-1.46 (2^23: 97, down to 0.88), so one bound, 2^22.
inline constexpr std::int64_t small_weights = std::int64_t(1) << 22;

/// The swapped tile of 32-160 rows that tile_load_cost ranks first for m x n x k on `sms` SMs (the
/// wider among equals).
constexpr GemmTile load_ranked_swapped_tile(std::int64_t m, std::int64_t n, std::int64_t k, int sms) {
  GemmTile best = GemmTile::swap32;
  std::int64_t best_cost = tile_load_cost(m, n, k, swapped_rows(best), 128, sms);
  for (GemmTile const t : {GemmTile::swap64, GemmTile::swap80, GemmTile::swap96, GemmTile::swap112, GemmTile::swap128,
                           GemmTile::swap144, GemmTile::swap160})
    if (std::int64_t const cost = tile_load_cost(m, n, k, swapped_rows(t), 128, sms); cost <= best_cost)
      best = t, best_cost = cost;
  return best;
}

/// `covering` (covering_swapped_tile's tile for m x n x k), or where it is one tile alone (not a
/// pair) on weights of at most small_weights elements, load_ranked_swapped_tile's. On such weights
/// one tile of C's rows makes few CTAs (4096 x 2048: 32), where two to five keep more loads in
/// flight and read the weights again from L2. On the H100's candidate sweeps (bench/results,
/// kernels/gemm/README.md) it changed 42 shapes of 65-160 rows by 0.94-1.41 (geomean 1.16), each
/// file's 65-160-row band not below the rule before; the band over every file 0.840 -> 0.857 of
/// cuBLASLt.
constexpr GemmTile small_weights_swapped_tile(std::int64_t m, std::int64_t n, std::int64_t k, GemmTile covering,
                                              int sms) {
  SwappedShape const shape = swapped_shape(covering);
  if (shape.along_rows * shape.along_cols > 1 || n * k > small_weights) return covering;
  return load_ranked_swapped_tile(m, n, k, sms);
}

/// At 161-320 rows of more than 128 columns on weights of at most small_weights elements,
/// load_ranked_swapped_tile's tile, where the pairs (paired_swapped_tile) or the small problem's
/// tile held the rows in the fewest tiles: small weights (1024 x 1536, 768 x 2048) make few CTAs of
/// those, and narrower tiles (swap32 to swap96) ran up to 1.4x faster on the H100's candidate
/// sweeps (the weights' second reads from L2); none elsewhere.
constexpr std::optional<GemmTile> small_weights_paired_tile(std::int64_t m, std::int64_t n, std::int64_t k, int sms) {
  if (m <= 160 || m > 2 * 160 || n <= 128 || n * k > small_weights) return std::nullopt;
  return load_ranked_swapped_tile(m, n, k, sms);
}

/// The narrowest pair of swapped tiles (swap96cn2 to swap160cn2) holding C's rows where 128-row
/// tiles would take two or three (161-320 rows), of more than 128 columns; none elsewhere. A pair
/// shares (multicasts) the weights' tile, which two single tiles would each read, and pads at most
/// 31 rows. At 257-320 rows the pairs are two thirds as many as the 128 x 256 tiles and always
/// taken; at 161-256 as many, each two CTAs, so taken only while they fit one wave of `sms` (at 194
/// rows of the model-shape sweep, past one wave they ran at 0.87 of the 128 x 256 tiles' figure),
/// nor on weights of weights_past_l2 or more (wide_token_tile's one tile of 176-256 rows then: 40
/// shapes of the H100's candidate sweeps, 4096-8192 x 8192-28672 at 176-256 rows, 0.98-1.46 of the
/// pairs, geomean 1.14). On the H100 (kernels/gemm/README.md): 104 unseen shapes at 165-950 rows
/// 0.81 of cuBLASLt with these rules against 0.72 before.
constexpr std::optional<GemmTile> paired_swapped_tile(std::int64_t m, std::int64_t n, std::int64_t k, int sms) {
  if (m <= 160 || m > 2 * 160 || n <= 128) return std::nullopt;
  std::int64_t const pair_ctas = 2 * ((n + 127) / 128);
  if (m <= 256 && (pair_ctas > sms || n * k >= weights_past_l2)) return std::nullopt;
  return narrowest_holding({GemmTile::swap96cn2, GemmTile::swap112cn2, GemmTile::swap128cn2, GemmTile::swap144cn2,
                            GemmTile::swap160cn2},
                           m, 2);
}

/// Past 160 rows, where 128 x 256 tiles would make fewer tiles than a quarter of the SMs (a narrow
/// projection at a few hundred rows: Qwen3-0.6B's o and down, an MoE expert's), the swapped tile of
/// 64-128 rows that pads C's rows least (the wider among equals), for more and smaller tiles, unless
/// it loads more (tile_load_cost: long K, where the wide tiles' splits fill the SMs); none
/// elsewhere or at most 128 columns (choose_gemm_plan asks it after the pairs: past 320 rows). At
/// 98-123 rows the one-row tiles (n64c1, n128c1) ran 5-25% faster than these on the narrow probes,
/// so they keep them.
constexpr std::optional<GemmTile> small_problem_swapped_tile(std::int64_t m, std::int64_t n, std::int64_t k,
                                                             int sms) {
  if (m <= 160 || n <= 128 || (m + 127) / 128 * ((n + 255) / 256) * 4 >= sms) return std::nullopt;
  auto const padded = [m](GemmTile t) { return (m + swapped_rows(t) - 1) / swapped_rows(t) * swapped_rows(t); };
  GemmTile best = GemmTile::swap64;
  for (GemmTile const t : {GemmTile::swap80, GemmTile::swap96, GemmTile::swap112, GemmTile::swap128})
    if (padded(t) <= padded(best)) best = t;
  if (tile_load_cost(m, n, k, swapped_rows(best), 128, sms) > tile_load_cost(m, n, k, 128, 256, sms))
    return std::nullopt;
  return best;
}

/// At 129-2560 rows of more than 128 columns, where no tile above applies (choose_gemm_plan asks
/// it last; below 161 rows only weights past L2 reach it): the fewest tiles of at most 256 of C's
/// rows that hold m, each as wide as they need in steps of 16 (swap176c2 to swap256c2: 128 columns
/// of C by 176-256 rows, in pairs along C's columns sharing the rows' tile); none elsewhere. 128 x
/// 256 tiles in pairs along M pad m to a multiple of 256 (537 rows run as 768; as 3 x 192 here;
/// 1332 as 1536), and cuBLAS's kernels at these rows are tiles of this kind (128 x 184 in clusters
/// of 4 for 537 x 5120 x 5120, seen with ncu). fewest_waves_tile weighs the choice against the
/// 128 x 256 pairs, which past 1280 rows (five such tiles) are mostly the lighter; the candidate
/// sweeps measured up to 2540 rows (kernels/gemm/README.md).
constexpr std::optional<GemmTile> wide_token_tile(std::int64_t m, std::int64_t n) {
  if (m <= 128 || m > 10 * 256 || n <= 128) return std::nullopt;
  return narrowest_holding({GemmTile::swap176c2, GemmTile::swap192c2, GemmTile::swap208c2, GemmTile::swap224c2,
                            GemmTile::swap240c2, GemmTile::swap256c2},
                           m, (m + 255) / 256);
}

/// Where paired_swapped_tile or wide_token_tile chose `chosen` (a pair of 128-column tiles), the
/// tile of four that leaves the SMs least work a wave: `chosen`; the 2 x 2 clusters (swap160c2cn2
/// to swap224c2cn2: the fewest pairs of at most 224 rows holding m, as wide as they need in steps
/// of 32, where that is more than 128: the 96- and 128-row ones ran at 0.75 and 0.81 of cuBLAS on
/// the model-shape sweep's rows at 8e72d33 where the rule took them, and the probe too gains
/// without them, 0.925 -> 0.928); the 256-column pairs (swap144x256cn2, swap160x256cn2: pairs of
/// 144 or 160 rows); the 128 x 256 tiles in pairs along M (n256, choose_gemm_tile's past 128 rows,
/// which pad m to a multiple of 256). Each is weighed as its waves of CTAs times its tile's area:
/// the 256-column swapped tiles' area divided by 1.15, the 128 x 256 tiles' by 1.1, the 2 x 2
/// clusters' by 1.2 where they fill 70% of the CTAs resident (a CTA there reads a quarter
/// of a pair's bytes from L2, which bounds a full GPU at these rows: ncu put a 128 x 192 pair's L2
/// at 87% of its peak) or by 0.9 where they do not (waiting on three CTAs, not two, with L2 idle).
/// Clusters of 4 leave SMs idle: 120 CTAs resident on the H100's 132 (ncu), so sms - sms / 11.
/// Read from the H100's candidates at 825183a (the probe's 80 shapes of 194-1060 rows,
/// bench/results/h100-825183a: 0.897 -> 0.925 of cuBLASLt's geomean; no weight moved by 0.1 gained
/// more than 0.003) and, for the 128 x 256 option, at 532ff11 (seed 20261207's 96 shapes of
/// 164-2540 rows, bench/results/h100-532ff11: 0.870 -> 0.897, the same at weights 1.07-1.13; the
/// probe unchanged).
constexpr GemmTile fewest_waves_tile(std::int64_t m, std::int64_t n, GemmTile chosen, int sms) {
  struct Option {
    GemmTile tile;
    std::int64_t ctas, area, weight;  // weight: the area's divisor, in hundredths
    std::int64_t resident;            // CTAs a wave
    bool taken = true;
  };
  auto const even = [](std::int64_t x) { return (x + 1) / 2 * 2; };
  std::int64_t const rows = swapped_rows(chosen), row_tiles = (m + rows - 1) / rows, columns = (n + 127) / 128;
  bool const along_rows = swapped_pairs_along_rows(chosen);  // else along C's columns (c2)
  std::int64_t const quad_pairs = (m + 447) / 448, quad_ctas = 2 * quad_pairs * even(columns);
  std::int64_t const quad_resident = sms - sms / 11, tall_pairs = (m + 319) / 320;
  GemmTile const quad =
      *narrowest_holding({GemmTile::swap160c2cn2, GemmTile::swap192c2cn2, GemmTile::swap224c2cn2}, m, 2 * quad_pairs);
  GemmTile const tall = *narrowest_holding({GemmTile::swap144x256cn2, GemmTile::swap160x256cn2}, m, 2 * tall_pairs);
  Option const options[] = {
      {chosen, along_rows ? even(row_tiles) * columns : row_tiles * even(columns), rows * 128, 100, sms},
      {quad, quad_ctas, swapped_rows(quad) * 128, quad_ctas * 10 >= quad_resident * 7 ? 120 : 90, quad_resident,
       2 * quad_pairs * 128 < m},
      {tall, 2 * tall_pairs * ((n + 255) / 256), swapped_rows(tall) * 256, 115, sms},
      {GemmTile::n256, even((m + 127) / 128) * ((n + 255) / 256), 128 * 256, 110, sms}};
  Option const* best = &options[0];
  auto const cost = [](Option const& o) { return (o.ctas + o.resident - 1) / o.resident * o.area * 100 / o.weight; };
  for (Option const& o : options)
    if (o.taken && cost(o) < cost(*best)) best = &o;
  return best->tile;
}

}  // namespace cute_cpp::kernels
