// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// swizzled_smem_copy: Y = X^T for float (M, N) matrices, through a 32 x 32 shared-memory tile.
// Each block loads one tile of X with 16-byte vectors (a TiledCopy), writes it to shared memory,
// reads it back along its columns through a transposed view of the same memory, and stores Y's
// tile with 16-byte vectors. Reading a row-major tile down its columns sends a warp's 32 reads to
// few of the 32 banks; composing the tile's layout with Swizzle<5,0,5> (column ^= row) spreads
// them over all 32. The program counts the conflicts of both layouts from the layout types
// themselves, runs both kernels, and checks every element of Y exactly.
//   swizzled_smem_copy            (needs a GPU; without one it prints the counts and exits 0)
#include <cute_cpp/copy.hpp>    // TiledCopy, CopyAtom, CopyUniversalOp, copy, copy_if
#include <cute_cpp/host.hpp>    // DeviceBuffer, launch, cuda_check
#include <cute_cpp/layout.hpp>  // Layout, RowMajor, ColMajor, Swizzle, ComposedLayout, to_string
#include <cute_cpp/smem/allocator.hpp>  // SmemArray
#include <cute_cpp/tensor.hpp>  // make_tensor, TensorMut, make_fragment_like

#include <cstdio>
#include <exception>
#include <random>
#include <stdexcept>
#include <vector>

namespace cc = cute_cpp;
using cc::C;

// ---- the plan: 32 x 8 threads, each moving 1 x 4 floats (16 bytes) -> a 32 x 32 tile ----
using Copy = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, float>,
                           cc::Layout<cc::Shape<C<32>, C<8>>, cc::Stride<C<8>, C<1>>>,  // (32,8) -> thread
                           cc::Layout<cc::Shape<C<1>, C<4>>, cc::Stride<C<0>, C<1>>>>;  // (1,4) -> value
constexpr int tile = Copy::tile_m;
static_assert(Copy::tile_m == 32 && Copy::tile_n == 32, "cute-cpp: the transpose plan moves square 32 x 32 tiles");

/// A shared tile's layout, and the transposed view of the same memory: Transposed(i, j) == Layout(j, i).
template <class L, class LT>
struct TileLayouts {
  using layout = L;
  using transposed = LT;
};
using Plain = TileLayouts<cc::RowMajor<tile, tile>, cc::ColMajor<tile, tile>>;
// Swizzle<5,0,5>: element offset bits 5..9 (the row) XORed into bits 0..4 (the column).
using Swizzled = TileLayouts<cc::ComposedLayout<cc::Swizzle<5, 0, 5>, 0, cc::RowMajor<tile, tile>>,
                          cc::ComposedLayout<cc::Swizzle<5, 0, 5>, 0, cc::ColMajor<tile, tile>>>;

/// True when the transposed view addresses element (j, i) of the tile at (i, j), for every (i, j).
template <class S>
constexpr bool transposes() {
  for (int i = 0; i < tile; ++i)
    for (int j = 0; j < tile; ++j)
      if (typename S::transposed{}(cc::make_coord(i, j)) != typename S::layout{}(cc::make_coord(j, i))) return false;
  return true;
}
static_assert(transposes<Plain>() && transposes<Swizzled>(),
              "cute-cpp: a tile's transposed view must address the same memory, transposed");

/// Ways of bank conflict when warp 0 touches shared memory through layout L at each of its values'
/// coordinates: the most distinct 4-byte words one of the 32 banks must serve in one access (1: none).
template <class L>
constexpr int bank_conflict_ways() {
  int worst = 1;
  for (int v = 0; v < Copy::vn; ++v) {
    long long words[32] = {};
    for (int t = 0; t < 32; ++t) words[t] = static_cast<long long>(L{}(Copy::get_slice(t).coord(0, v, 0, 0)));
    for (int t = 0; t < 32; ++t) {
      int ways = 0;  // distinct words in thread t's bank
      for (int u = 0; u < 32; ++u) {
        bool first = words[u] % 32 == words[t] % 32;
        for (int w = 0; w < u && first; ++w) first = words[w] != words[u];
        ways += first ? 1 : 0;
      }
      worst = ways > worst ? ways : worst;
    }
  }
  return worst;
}
static_assert(bank_conflict_ways<Swizzled::layout>() == 1 && bank_conflict_ways<Swizzled::transposed>() == 1,
              "cute-cpp: the swizzled tile must be free of bank conflicts in both directions");

template <class S>
__global__ void __launch_bounds__(Copy::threads) transpose_kernel(float const* x, float* y, int m, int n) {
  __shared__ cc::SmemArray<float, tile * tile> storage;
  // NOTE: make_tensor takes plain layouts only; a view over a ComposedLayout is built directly.
  auto const sX = cc::TensorMut<float, typename S::layout>::from_ptr(storage.data, {});       // (32,32) X's tile
  auto const sXt = cc::TensorMut<float, typename S::transposed>::from_ptr(storage.data, {});  // (32,32) its transpose
  int const bm = int(blockIdx.y), bn = int(blockIdx.x);
  auto const gX = cc::local_tile(cc::make_tensor(x, cc::make_layout(cc::make_shape(m, n), cc::make_stride(n, C<1>{}))),
                                 Copy::tile(), cc::make_coord(bm, bn));  // (32,32) of X
  auto const gY = cc::local_tile(cc::make_tensor(y, cc::make_layout(cc::make_shape(n, m), cc::make_stride(m, C<1>{}))),
                                 Copy::tile(), cc::make_coord(bn, bm));  // (32,32) of Y = X^T

  auto const thr = Copy::get_slice(int(threadIdx.x));
  auto const tXgX = thr.partition_S(gX);  // (CPY,CPY_M,CPY_N) = ((1,4),1,1)
  auto const tYgY = thr.partition_D(gY);  // ((1,4),1,1)
  auto tXrX = cc::make_fragment_like(tXgX);
  auto tYrY = cc::make_fragment_like(tYgY);
  auto const first = thr.coord(0, 0, 0, 0);  // this thread's vector, in tile coordinates
  bool const x_inside = bm * tile + cc::get<0>(first) < m && bn * tile + cc::get<1>(first) < n;
  bool const y_inside = bn * tile + cc::get<0>(first) < n && bm * tile + cc::get<1>(first) < m;

  cc::copy_if(Copy{}, [x_inside](int, int, int, int) { return x_inside; }, tXgX, tXrX.view());  // LDG.128
  for (int v = 0; v < Copy::vn; ++v) sX(thr.coord(0, v, 0, 0)) = tXrX.view()[v];   // a row of X's tile
  __syncthreads();
  for (int v = 0; v < Copy::vn; ++v) tYrY.view()[v] = sXt(thr.coord(0, v, 0, 0));  // a column of it
  if (y_inside) cc::copy(Copy{}, tYrY.view(), tYgY);  // STG.128
}

// ---- host ----

template <class S>
bool check(char const* name, int m, int n, std::mt19937& rng) {
  if (m % Copy::vn != 0 || n % Copy::vn != 0)
    throw std::invalid_argument("M and N must be multiples of 4 (16-byte rows of X and Y)");
  std::size_t const count = std::size_t(m) * std::size_t(n);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> hx(count);
  for (auto& v : hx) v = dist(rng);
  cc::host::DeviceBuffer<float> dx(count), dy(count);
  dx.upload(hx);
  dy.fill_bytes(0xFF);  // poison: NaN until written
  dim3 const grid(unsigned((n + tile - 1) / tile), unsigned((m + tile - 1) / tile));
  cc::host::launch(transpose_kernel<S>, "transpose_kernel",
                   cc::host::LaunchConfig{.grid = grid, .block = dim3(Copy::threads)}, dx.data(), dy.data(), m, n);
  cc::host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const hy = dy.download();
  std::size_t bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float const got = hy[std::size_t(j) * m + i], want = hx[std::size_t(i) * n + j];
      if (!(got == want) && bad++ < 5) std::printf("  mismatch at Y(%d, %d): got %g, want %g\n", j, i, got, want);
    }
  std::printf("check %-8s M=%-5d N=%-5d %s\n", name, m, n, bad == 0 ? "ok (exact)" : "FAILED");
  return bad == 0;
}

int main() {
  // NOTE: only the reads are compared: the plain tile's row writes are one 16-byte store per thread
  // (nvcc fuses the four), which shared memory serves without conflict, as it does the swizzled
  // tile's four 4-byte stores (bank_conflict_ways<Swizzled::layout>() == 1).
  std::printf("warp 0 reading a column of X's tile, ways of bank conflict (1: none):\n");
  std::printf("  %-40s %d\n", cc::to_string(Plain::layout{}).c_str(), bank_conflict_ways<Plain::transposed>());
  std::printf("  %-40s %d\n", cc::to_string(Swizzled::layout{}).c_str(), bank_conflict_ways<Swizzled::transposed>());
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("swizzled_smem_copy: needs a CUDA GPU (sm_90a, sm_100a or sm_120a) to run; none found\n");
    return 0;
  }
  try {
    unsigned const seed = std::random_device{}();
    std::printf("swizzled_smem_copy: seed %u\n", seed);
    std::mt19937 rng(seed);
    bool ok = true;
    for (auto [m, n] : {std::pair{4, 4}, std::pair{36, 100}, std::pair{1000, 1004}, std::pair{4096, 2052}}) {
      ok &= check<Plain>("plain", m, n, rng);
      ok &= check<Swizzled>("swizzled", m, n, rng);
    }
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "swizzled_smem_copy: %s\n", e.what());
    return 1;
  }
}
