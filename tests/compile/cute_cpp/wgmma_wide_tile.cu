// SPDX-License-Identifier: Apache-2.0
// A wgmma tile wider than 256 columns is cut into equal N atoms: their descriptors step whole
// atoms of B rows and keep the base offset, and their fragments sit one after another, so the
// accumulator's (row, col) map is the same as for a single atom.
// cute-cpp-archs: 90a
#include <cute_cpp/mma/sm90_wgmma.hpp>
#include <cute_cpp/smem/smem_tile.hpp>

#include <cuda_bf16.h>

namespace {
using T = __nv_bfloat16;
using cute_cpp::SmemKMajor;
using cute_cpp::SmemMNMajor;
using Wide = cute_cpp::sm90::WgmmaTiledMma<T, T, float, SmemKMajor<T, 64, 64>, SmemKMajor<T, 320, 64>, 1, 320>;
static_assert(Wide::atoms_n == 2 && Wide::atom_n == 160 && Wide::acc_per_atom == 160);
// The second atom starts 160 K-major rows of 128 bytes on: a multiple of the 1024-byte repeat.
static_assert(Wide::OpB::offset_bytes(160, 0) == 160 * 128);
static_assert(Wide::OpB::descriptor(0, 160, 0) - Wide::OpB::descriptor(0, 0, 0) == (160 * 128) >> 4);
// Element 80 of a thread's fragment is the first of the second atom: column 160 (+ its lane's).
static_assert(Wide::get_slice(0).col(80) == 160 && Wide::get_slice(3).col(81) == 167);
// 512 columns: two atoms of 256; an MN-major B cut at whole 64-column boxes.
using Widest = cute_cpp::sm90::WgmmaTiledMma<T, T, float, SmemKMajor<T, 64, 64>, SmemMNMajor<T, 512, 64>, 1, 512>;
static_assert(Widest::atoms_n == 2 && Widest::atom_n == 256);
static_assert(Widest::OpB::offset_bytes(256, 0) == 4 * 64 * 64 * 2);
// Up to 256 columns: one atom, as before.
using Narrow = cute_cpp::sm90::WgmmaTiledMma<T, T, float, SmemKMajor<T, 64, 64>, SmemKMajor<T, 256, 64>, 1, 256>;
static_assert(Narrow::atoms_n == 1 && Narrow::atom_n == 256);
}  // namespace

__global__ void wide_tile(Wide::FragmentC* out, T const* a, T const* b) {
  Wide::FragmentC acc;
  acc.fill(0.0f);
  Wide::warpgroup_arrive(acc);
  Wide::gemm(acc, a, b, 0);
  Wide::commit_group();
  Wide::wait_group<0>(acc);
  out[threadIdx.x] = acc;
}
