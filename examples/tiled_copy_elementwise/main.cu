// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// tiled_copy_elementwise: y = silu(x) * z on bf16 (M, N) matrices, moved with a TiledCopy of 16-byte
// copy atoms. Each block owns one 16 x 64 tile; each of its 128 threads loads one 8-element vector
// of x and z, computes in float, and stores one vector of y. M and N need not be multiples of the
// tile: a thread whose vector lies outside the matrix skips it (N is a multiple of 8, so a vector
// is wholly inside or wholly outside). Checked on fresh random data against a CPU reference.
//   tiled_copy_elementwise            (needs a GPU; without one it says so and exits 0)
#include <cute_cpp/copy.hpp>         // TiledCopy, CopyAtom, CopyUniversalOp, copy, copy_if
#include <cute_cpp/host.hpp>         // DeviceBuffer, launch, cuda_check
#include <cute_cpp/layout.hpp>       // Layout, Shape, Stride, C, make_layout, local_tile
#include <cute_cpp/tensor.hpp>       // make_tensor, make_fragment_like, RegisterTile

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <random>
#include <stdexcept>
#include <vector>

namespace cc = cute_cpp;
using cc::C;
using bf16 = cc::bf16;

// ---- the plan: 16 x 8 threads, each moving 1 x 8 bf16 values (16 bytes) -> a 16 x 64 tile ----
using ThrLayout = cc::Layout<cc::Shape<C<16>, C<8>>, cc::Stride<C<8>, C<1>>>;  // (16,8) -> thread, row-major
using ValLayout = cc::Layout<cc::Shape<C<1>, C<8>>, cc::Stride<C<0>, C<1>>>;   // (1,8) -> value
using Copy = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, bf16>, ThrLayout, ValLayout>;
static_assert(Copy::tile_m == 16 && Copy::tile_n == 64 && Copy::threads == 128,
              "cute-cpp: the elementwise plan is 128 threads over a 16 x 64 tile");
static_assert(Copy::vn * sizeof(bf16) == 16, "cute-cpp: each thread's values along N must be one 16-byte vector");

/// silu(a) * b, in float. (A functor, not a lambda: RegisterTile's maps are constexpr host-device
/// functions, which nvcc does not let call a device lambda.)
struct SiluMul {
  CUTE_CPP_HD float operator()(float a, float b) const { return a / (1.0f + ::expf(-a)) * b; }
};

__global__ void __launch_bounds__(Copy::threads) silu_mul_kernel(bf16 const* x, bf16 const* z, bf16* y, int m, int n) {
  auto const matrix = cc::make_layout(cc::make_shape(m, n), cc::make_stride(n, C<1>{}));  // (M,N), N contiguous
  auto const tile = Copy::tile();                                                          // (_16,_64)
  auto const at = cc::make_coord(int(blockIdx.y), int(blockIdx.x));
  auto const gX = cc::local_tile(cc::make_tensor(x, matrix), tile, at);  // (16,64) of x
  auto const gZ = cc::local_tile(cc::make_tensor(z, matrix), tile, at);  // (16,64) of z
  auto const gY = cc::local_tile(cc::make_tensor(y, matrix), tile, at);  // (16,64) of y

  auto const thr = Copy::get_slice(int(threadIdx.x));
  auto const tXgX = thr.partition_S(gX);  // (CPY,CPY_M,CPY_N) = ((1,8),1,1): this thread's vector of x
  auto const tXgZ = thr.partition_S(gZ);  // ((1,8),1,1)
  auto const tYgY = thr.partition_D(gY);  // ((1,8),1,1)
  auto tXrX = cc::make_fragment_like(tXgX);  // ((1,8),1,1) in registers
  auto tXrZ = cc::make_fragment_like(tXgZ);
  auto tYrY = cc::make_fragment_like(tYgY);

  // The tail: this thread's vector starts at `first` of the tile; it is inside or outside whole.
  auto const first = thr.coord(0, 0, 0, 0);
  bool const inside = int(blockIdx.y) * Copy::tile_m + cc::get<0>(first) < m &&
                      int(blockIdx.x) * Copy::tile_n + cc::get<1>(first) < n;
  auto const in_bounds = [inside](int, int, int, int) { return inside; };

  cc::copy_if(Copy{}, in_bounds, tXgX, tXrX.view());  // one LDG.128 each (zeros when outside)
  cc::copy_if(Copy{}, in_bounds, tXgZ, tXrZ.view());
  auto const xs = tXrX.load().to<float>();  // RegisterTile<float, 8>
  auto const zs = tXrZ.load().to<float>();
  tYrY.store(xs.zip_map(zs, SiluMul{}).to<bf16>());
  // NOTE: copy_if would write zeros where the predicate fails; a store outside the matrix must not
  // happen at all, so the store is skipped instead.
  if (inside) cc::copy(Copy{}, tYrY.view(), tYgY);  // one STG.128
}

// ---- host: launch, reference, check ----

void silu_mul(bf16 const* x, bf16 const* z, bf16* y, int m, int n) {
  if (n % Copy::vn != 0)
    throw std::invalid_argument("N must be a multiple of 8 (16-byte rows)");
  dim3 const grid(unsigned((n + Copy::tile_n - 1) / Copy::tile_n), unsigned((m + Copy::tile_m - 1) / Copy::tile_m));
  cc::host::LaunchConfig const config{.grid = grid, .block = dim3(Copy::threads)};
  cc::host::launch(silu_mul_kernel, "silu_mul_kernel", config, x, z, y, m, n);
}

/// Runs one (M, N) case on fresh random data; true when every element is within tolerance.
bool check(int m, int n, std::mt19937& rng) {
  std::size_t const count = std::size_t(m) * std::size_t(n);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<bf16> hx(count), hz(count);
  for (std::size_t i = 0; i < count; ++i) {
    hx[i] = __float2bfloat16(dist(rng));
    hz[i] = __float2bfloat16(dist(rng));
  }
  cc::host::DeviceBuffer<bf16> dx(count), dz(count), dy(count);
  dx.upload(hx);
  dz.upload(hz);
  dy.fill_bytes(0xFF);  // poison: every bf16 is a NaN until the kernel writes it
  silu_mul(dx.data(), dz.data(), dy.data(), m, n);
  cc::host::cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  auto const hy = dy.download();

  std::size_t bad = 0;
  double worst = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    double const a = double(float(hx[i])), b = double(float(hz[i]));
    double const want = a / (1.0 + std::exp(-a)) * b;
    double const got = double(float(hy[i]));
    // NOTE: y is rounded to bf16 (8 significant bits): half an ulp is 2^-8 relative; allow twice that.
    double const tolerance = std::ldexp(std::fabs(want), -7) + 1e-6;
    double const error = std::fabs(got - want);  // NaN (never written) fails the test below
    worst = std::max(worst, error / tolerance);
    if (!(error <= tolerance) && bad++ < 5)
      std::printf("  mismatch at (%zu, %zu): got %g, want %g\n", i / n, i % n, got, want);
  }
  std::printf("check M=%-5d N=%-5d %s (largest error / tolerance %.3f)\n", m, n, bad == 0 ? "ok    " : "FAILED",
              worst);
  return bad == 0;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("tiled_copy_elementwise: needs a CUDA GPU (sm_90a, sm_100a or sm_120a); none found, nothing run\n");
    return 0;
  }
  try {
    unsigned const seed = std::random_device{}();
    std::printf("tiled_copy_elementwise: seed %u\n", seed);
    std::mt19937 rng(seed);
    bool ok = true;
    for (auto [m, n] : {std::pair{1, 8}, std::pair{15, 72}, std::pair{1001, 1000}, std::pair{4099, 4104}})
      ok &= check(m, n, rng);
    return ok ? 0 : 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "tiled_copy_elementwise: %s\n", e.what());
    return 1;
  }
}
