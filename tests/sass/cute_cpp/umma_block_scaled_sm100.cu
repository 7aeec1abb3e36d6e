// sm100::UmmaTiledMma with block scaling: mxf8f6f4 is a UTCQMMA reading scale factors from tensor
// memory, mxf4 a UTCOMMA, mxf4nvf4 (ue4m3 every 16) a UTCOMMA.4X; UmmaScaleFactorLayout::copy is a
// tcgen05.cp 32x128b.warpx4 (UTCCP 4x32dp128bit) per 512-byte block. No local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCQMMA gdesc[^;]*idesc\[UR[0-9]+\], tmem\[UR[0-9]+\]"}}
// expect-sass: {{"UTCOMMA gdesc"}}
// expect-sass: {{"UTCOMMA\.4X gdesc"}}
// expect-sass: {{"UTCCP\.T\.S\.4x32dp128bit tmem"}}
// reject-sass: {{"LDL|STL"}}
#include <cute_cpp/mma/sm100_umma.hpp>

namespace cc = cute_cpp;
namespace sm = cc::sm100;
using e4m3 = __nv_fp8_e4m3;
using fp4x2 = __nv_fp4x2_e2m1;
using Mx8 = sm::UmmaTiledMma<e4m3, e4m3, float, cc::SmemKMajor<e4m3, 128, 128>, cc::SmemKMajor<e4m3, 256, 128>, 128,
                             256, 1, sm::UmmaBlockScale<__nv_fp8_e8m0, 32>>;
using Mx4 = sm::UmmaTiledMma<fp4x2, fp4x2, float, cc::SmemKMajor<fp4x2, 128, 128>, cc::SmemKMajor<fp4x2, 128, 128>,
                             128, 128, 1, sm::UmmaBlockScale<__nv_fp8_e8m0, 32>>;
using Nv4 = sm::UmmaTiledMma<fp4x2, fp4x2, float, cc::SmemKMajor<fp4x2, 128, 128>, cc::SmemKMajor<fp4x2, 128, 128>,
                             128, 128, 1, sm::UmmaBlockScale<__nv_fp8_e4m3, 16>>;

__global__ void umma_block_scaled(std::uint32_t acc, std::uint32_t a, std::uint32_t b, std::uint32_t sf_smem,
                                  std::uint32_t sfa, std::uint32_t sfb) {
  if (threadIdx.x == 0) {
    Mx8::SfaLayout::copy(sf_smem, sfa);
    Mx8::SfbLayout::copy(sf_smem + Mx8::SfaLayout::bytes, sfb);
    Mx8::gemm(acc, a, b, sfa, sfb, false);
    Mx4::gemm(acc, a, b, sfa, sfb, true);
    Nv4::gemm(acc, a, b, sfa, sfb, true);
  }
}
