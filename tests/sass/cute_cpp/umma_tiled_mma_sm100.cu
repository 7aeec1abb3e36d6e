// sm100::UmmaTiledMma on one CTA: bf16 (kind::f16) and tf32 are UTCHMMAs, e4m3 x e2m1 (kind::f8f6f4)
// a UTCQMMA, each one instruction per K slice with the descriptors from the tile layouts; commit is
// a UTCBAR. No local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem\[UR[0-9]+\], tmem\[UR[0-9]+\], idesc\[UR[0-9]+\]"}}
// expect-sass: {{"UTCQMMA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem"}}
// expect-sass: {{"UTCBAR \[UR[0-9]+\]"}}
// reject-sass: {{"2CTA"}}
// reject-sass: {{"LDL|STL"}}
#include <cute_cpp/mma/sm100_umma.hpp>

namespace cc = cute_cpp;
using bf16 = __nv_bfloat16;
using Bf16 = cc::sm100::UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 128, 64>, cc::SmemMNMajor<bf16, 256, 64>,
                                     128, 256>;
using Tf32 = cc::sm100::UmmaTiledMma<float, float, float, cc::SmemKMajor<float, 64, 32>,
                                     cc::SmemKMajor<float, 128, 32, 128>, 64, 128>;
using F8F4 = cc::sm100::UmmaTiledMma<__nv_fp8_e4m3, __nv_fp4_e2m1, float, cc::SmemKMajor<__nv_fp8_e4m3, 128, 128>,
                                     cc::SmemKMajor<__nv_fp4_e2m1, 64, 128>, 128, 64>;

__global__ void umma_bf16(std::uint32_t acc, int k_tiles) {
  extern __shared__ __align__(1024) unsigned char smem[];
  auto const* a = reinterpret_cast<bf16 const*>(smem);
  auto const* b = reinterpret_cast<bf16 const*>(smem + 16384);
  auto* bar = reinterpret_cast<std::uint64_t*>(smem + 65536);
  if (threadIdx.x == 0)
    for (int k = 0; k < k_tiles; ++k) {
      Bf16::gemm(acc, a, b, k > 0);
      Bf16::commit(ctm::cvta_to_shared_u32(bar));
    }
}

__global__ void umma_tf32_and_f8f6f4(std::uint32_t acc, std::uint32_t a_smem, std::uint32_t b_smem) {
  if (threadIdx.x == 0) {
    Tf32::gemm(acc, a_smem, b_smem, false);
    F8F4::gemm(acc + 128, a_smem, b_smem, true);
  }
}
