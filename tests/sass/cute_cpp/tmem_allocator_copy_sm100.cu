// TmemAllocator (tcgen05.alloc / relinquish / dealloc: UTCATOMSWS and UVIRTCOUNT, with the fences)
// and an epilogue's copies of a 128 x 64 accumulator to registers: 32x32b.x16 is LDTM.x16 stepping
// 16 columns per copy, 16x256b.x1 LDTM.16dp256bit, each address from the warp's quarter; the loaded
// values are stored to global memory as floats at their (row, col). No local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCATOMSWS\.FIND_AND_SET\.ALIGN"}}
// expect-sass: {{"UTCATOMSWS\.AND"}}
// expect-sass: {{"UVIRTCOUNT\.DEALLOC\.SMPOOL"}}
// expect-sass: {{"LDTM\.x16 R[0-9]+, tmem\[UR[0-9]+\]"}}
// expect-sass: {{"LDTM\.x16 R[0-9]+, tmem\[UR[0-9]+\+0x10\]"}}
// expect-sass: {{"LDTM\.16dp256bit "}}
// reject-sass: {{"LDL|STL"}}
#include <cute_cpp/arch/tmem.hpp>
#include <cute_cpp/tmem/tmem_allocator.hpp>
#include <cute_cpp/tmem/tmem_copy.hpp>

namespace sm = cute_cpp::sm100;
using Acc = sm::UmmaAccumulator<128, 64, 1>;

template <class Atom>
__device__ void store_accumulator(float* c, std::uint32_t acc, int warp, int lane) {
  auto const slice = sm::get_slice<Acc, Atom>(warp, lane);
#pragma unroll
  for (int i = 0; i < slice.copies; ++i) {
    std::uint32_t r[Atom::registers];
    Atom::load(r, slice.tmem_addr(acc, i));
    cute_cpp::arch::fence_view_async_tmem_load();
#pragma unroll
    for (int j = 0; j < Atom::registers; ++j) c[slice.row(i, j) * 64 + slice.col(i, j)] = __uint_as_float(r[j]);
  }
}

__global__ void tmem_epilogue(float* c, float* d) {
  __shared__ std::uint32_t slot;
  sm::TmemAllocator<64> tmem{&slot};
  int const warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    tmem.allocate();
    tmem.relinquish_alloc_permit();
  }
  __syncthreads();
  std::uint32_t const acc = tmem.retrieve_ptr();
  store_accumulator<sm::TmemCopyAtom<ctm::Tcgen05LdStShape::s32x32b, 16>>(c, acc, warp, lane);
  store_accumulator<sm::TmemCopyAtom<ctm::Tcgen05LdStShape::s16x256b, 1>>(d, acc, warp, lane);
  cute_cpp::arch::tcgen05_fence_before_thread_sync();
  __syncthreads();
  if (warp == 0) tmem.free(acc);
}
