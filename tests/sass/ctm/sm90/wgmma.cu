// wgmma becomes the warpgroup MMA instructions on sm_90a: HGMMA for f16/bf16/tf32 (A from shared
// memory and from registers), QGMMA for e4m3/e5m2, IGMMA for s8/u8, with the fence and the
// commit/wait (WARPGROUP.ARRIVE, WARPGROUP.DEPBAR).
// cute-cpp-arch: 90a
// expect-sass: {{"HGMMA\.64x256x16\.F32\.BF16"}}
// expect-sass: {{"HGMMA\.64x128x16\.F16"}}
// expect-sass: {{"HGMMA\.64x64x8\.F32\.TF32"}}
// expect-sass: {{"QGMMA\.64x128x32\.F32\.E4M3\.E5M2"}}
// expect-sass: {{"IGMMA\.64x64x32\.S8\.S8"}}
// expect-sass: {{"WARPGROUP\.ARRIVE"}}
// expect-sass: {{"WARPGROUP\.DEPBAR"}}
#include <ctm/sm90/wgmma.hpp>

using ctm::DataType;
using ctm::WgmmaMajor;

__global__ void __launch_bounds__(128, 1) wgmma_kinds(float* out, std::int32_t* iout, std::uint32_t* hout) {
  __shared__ alignas(1024) std::uint8_t a[64 * 128], b[256 * 128];
  std::uint32_t const sa = ctm::cvta_to_shared_u32(a), sb = ctm::cvta_to_shared_u32(b);
  std::uint64_t const da = ctm::wgmma_desc_encode(ctm::wgmma_desc_canonical(sa, WgmmaMajor::k, ctm::WgmmaSwizzle::b128, 2, 64));
  std::uint64_t const db = ctm::wgmma_desc_encode(ctm::wgmma_desc_canonical(sb, WgmmaMajor::k, ctm::WgmmaSwizzle::b128, 2, 256));
  ctm::wgmma_accumulator_t<256, DataType::f32> acc{};
  ctm::wgmma_accumulator_t<128, DataType::f16> hacc{};
  ctm::wgmma_accumulator_t<64, DataType::f32> tacc{};
  ctm::wgmma_accumulator_t<128, DataType::f32> qacc{};
  ctm::wgmma_accumulator_t<64, DataType::s32> iacc{};
  std::uint32_t const ar[4] = {hout[0], hout[1], hout[2], hout[3]};
  ctm::wgmma_fence();
  ctm::wgmma_mma_async<256, DataType::f32, DataType::bf16, DataType::bf16>(acc, da, db, 0);
  ctm::wgmma_mma_async<128, DataType::f16, DataType::f16, DataType::f16, WgmmaMajor::k, WgmmaMajor::mn>(hacc, ar, db, 0);
  ctm::wgmma_mma_async<64, DataType::f32, DataType::tf32, DataType::tf32>(tacc, da, db, 0);
  ctm::wgmma_mma_async<128, DataType::f32, DataType::e4m3, DataType::e5m2>(qacc, da, db, 0);
  ctm::wgmma_mma_async<64, DataType::s32, DataType::s8, DataType::s8>(iacc, da, db, 0);
  ctm::wgmma_commit_group();
  ctm::wgmma_wait_group<0>();
  float s = 0.f;
  for (float v : acc) s += v;
  for (float v : tacc) s += v;
  for (float v : qacc) s += v;
  out[threadIdx.x] = s;
  std::int32_t t = 0;
  for (std::int32_t v : iacc) t += v;
  iout[threadIdx.x] = t;
  std::uint32_t h = 0;
  for (std::uint32_t v : hacc) h ^= v;
  hout[threadIdx.x] = h;
}
