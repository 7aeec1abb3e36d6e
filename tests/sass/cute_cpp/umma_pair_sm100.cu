// sm100::UmmaTiledMma on a CTA pair (CtaGroup 2, M = 256): UTCHMMA.2CTA, and the multicast commit
// to both CTAs' barriers (UTCBAR.2CTA.MULTICAST). No local memory.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA\.2CTA gdesc\[UR[0-9]+\], gdesc\[UR[0-9]+\], tmem"}}
// expect-sass: {{"UTCBAR\.2CTA\.MULTICAST"}}
// reject-sass: {{"LDL|STL"}}
#include <cute_cpp/mma/sm100_umma.hpp>

namespace cc = cute_cpp;
using bf16 = __nv_bfloat16;
using Pair = cc::sm100::UmmaTiledMma<bf16, bf16, float, cc::SmemKMajor<bf16, 128, 64>, cc::SmemKMajor<bf16, 128, 64>,
                                     256, 256, 2>;

__global__ void umma_pair(std::uint32_t acc, std::uint32_t a, std::uint32_t b, std::uint32_t bar, std::uint16_t mask) {
  if (threadIdx.x == 0) {
    Pair::gemm(acc, a, b, false);
    Pair::commit(bar, mask);
  }
}
