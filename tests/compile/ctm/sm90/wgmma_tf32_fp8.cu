// wgmma.mma_async with tf32 and e4m3/e5m2 inputs assembles for every N the instruction allows
// (8..256 step 8), A from shared memory and from registers, every fp8 pairing, f32 and f16
// accumulators, with the negate flags.
// cute-cpp-archs: 90a
#include <utility>
#include <ctm/sm90/wgmma.hpp>

using ctm::DataType;
using ctm::WgmmaMajor;

template <int N>
__global__ void every_form(float* out, std::uint32_t* hout, std::uint64_t da, std::uint64_t db, std::uint32_t const* ar) {
  ctm::wgmma_accumulator_t<N, DataType::f32> acc{};
  ctm::wgmma_accumulator_t<N, DataType::f16> hacc{};
  std::uint32_t a[4] = {ar[0], ar[1], ar[2], ar[3]};
  ctm::wgmma_fence();
  ctm::wgmma_mma_async<N, DataType::f32, DataType::tf32, DataType::tf32>(acc, da, db, 0);
  ctm::wgmma_mma_async<N, DataType::f32, DataType::tf32, DataType::tf32, WgmmaMajor::k, WgmmaMajor::k, -1, 1>(acc, a, db, 1);
  ctm::wgmma_mma_async<N, DataType::f32, DataType::e4m3, DataType::e4m3>(acc, da, db, 1);
  ctm::wgmma_mma_async<N, DataType::f32, DataType::e4m3, DataType::e5m2>(acc, a, db, 1);
  ctm::wgmma_mma_async<N, DataType::f32, DataType::e5m2, DataType::e4m3, WgmmaMajor::k, WgmmaMajor::k, 1, -1>(acc, da, db, 1);
  ctm::wgmma_mma_async<N, DataType::f32, DataType::e5m2, DataType::e5m2>(acc, a, db, 1);
  ctm::wgmma_mma_async<N, DataType::f16, DataType::e4m3, DataType::e4m3>(hacc, da, db, 0);
  ctm::wgmma_mma_async<N, DataType::f16, DataType::e5m2, DataType::e4m3>(hacc, a, db, 1);
  ctm::wgmma_mma_async<N, DataType::f16, DataType::e4m3, DataType::e5m2>(hacc, da, db, 1);
  ctm::wgmma_mma_async<N, DataType::f16, DataType::e5m2, DataType::e5m2>(hacc, a, db, 1);
  ctm::wgmma_commit_group();
  ctm::wgmma_wait_group<0>();
  for (int i = 0; i < N / 2; ++i) out[i] = acc[i];
  for (int i = 0; i < N / 4; ++i) hout[i] = hacc[i];
}

template <int... I>
void instantiate(std::integer_sequence<int, I...>) {
  static constexpr void (*kernels[])(float*, std::uint32_t*, std::uint64_t, std::uint64_t, std::uint32_t const*) = {
      &every_form<8 * (I + 1)>...};
  (void)kernels;
}
template void instantiate(std::make_integer_sequence<int, 32>);
