// tcgen05.mma.ws is the .WS form of the kind's instruction (UTCHMMA.WS for f16, UTCIMMA.WS for
// i8); tcgen05.mma.sp stays a UTCHMMA.
// cute-cpp-arch: 100a
// expect-sass: {{"UTCHMMA\.WS "}}
// expect-sass: {{"UTCIMMA\.WS "}}
// expect-sass: {{"UTCHMMA gdesc"}}
#include <ctm/sm100/tcgen05.hpp>

__global__ void mma_ws_sp(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t meta,
                          std::uint64_t mask) {
  constexpr std::uint32_t ws = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .m = 64, .n = 128, .ws = true, .max_shift = ctm::Tcgen05MaxShift::shift16}>;
  constexpr std::uint32_t ws_i8 = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .kind = ctm::Tcgen05Kind::i8, .a = ctm::Tcgen05Type::s8, .b = ctm::Tcgen05Type::u8,
      .d = ctm::Tcgen05DType::s32, .m = 32, .n = 64, .ws = true}>;
  constexpr std::uint32_t sp = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .m = 128, .n = 128, .sparse = true, .sparsity_selector = 1}>;
  ctm::tcgen05_mma_ws<ctm::Tcgen05Kind::f16>(d, a, b, ws, true, mask);
  ctm::tcgen05_mma_ws<ctm::Tcgen05Kind::i8>(d, a, b, ws_i8, false);
  ctm::tcgen05_mma_sp<ctm::Tcgen05Kind::f16>(d, a, b, meta, sp, true);
}
