// wgmma.mma_async with s8/u8 inputs assembles for every N the instruction allows (8, 16, 24,
// then 32..256 step 16), A from shared memory and from registers, every signedness pairing,
// with and without .satfinite.
// cute-cpp-archs: 90a
#include <ctm/sm90/wgmma.hpp>

using ctm::DataType;
using ctm::WgmmaMajor;

template <int N>
__global__ void every_form(std::int32_t* out, std::uint64_t da, std::uint64_t db, std::uint32_t const* ar) {
  ctm::wgmma_accumulator_t<N, DataType::s32> acc{};
  std::uint32_t a[4] = {ar[0], ar[1], ar[2], ar[3]};
  ctm::wgmma_fence();
  ctm::wgmma_mma_async<N, DataType::s32, DataType::s8, DataType::s8>(acc, da, db, 0);
  ctm::wgmma_mma_async<N, DataType::s32, DataType::s8, DataType::u8>(acc, a, db, 1);
  ctm::wgmma_mma_async<N, DataType::s32, DataType::u8, DataType::s8, WgmmaMajor::k, WgmmaMajor::k, 1, 1, true>(acc, da, db, 1);
  ctm::wgmma_mma_async<N, DataType::s32, DataType::u8, DataType::u8, WgmmaMajor::k, WgmmaMajor::k, 1, 1, true>(acc, a, db, 1);
  ctm::wgmma_commit_group();
  ctm::wgmma_wait_group<0>();
  for (int i = 0; i < N / 2; ++i) out[i] = acc[i];
}

template <int... N>
void instantiate() {
  static constexpr void (*kernels[])(std::int32_t*, std::uint64_t, std::uint64_t, std::uint32_t const*) = {
      &every_form<N>...};
  (void)kernels;
}
template void instantiate<8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256>();
