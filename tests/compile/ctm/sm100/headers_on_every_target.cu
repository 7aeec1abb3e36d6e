// The Blackwell ctm headers are harmless where their instructions do not exist: included (not
// used) on every target, and the descriptor encoders and selector types, which are plain
// constexpr code, work in any device pass.
// cute-cpp-archs: 90a 100a 120a
#include <ctm/sm100/tcgen05.hpp>
#include <ctm/sm120/mma_block_scale.hpp>

__global__ void descriptors_anywhere(std::uint64_t* out, std::uint32_t start) {
  constexpr std::uint32_t idesc = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{
      .kind = ctm::Tcgen05Kind::mxf4nvf4, .a = ctm::Tcgen05Type::e2m1, .b = ctm::Tcgen05Type::e2m1,
      .m = 128, .n = 256, .scale = ctm::Tcgen05ScaleType::ue4m3}>;
  static_assert(idesc == 0x0840'0480u);
  out[0] = ctm::tcgen05_smem_desc({.start_address = start & 0x3FFF0u, .lbo_bytes = 16, .sbo_bytes = 1024,
                                   .swizzle = ctm::Tcgen05Swizzle::b128});
  out[1] = ctm::tcgen05_idesc({.kind = ctm::Tcgen05Kind::f16, .m = 128, .n = static_cast<int>(start % 256) + 8});
  out[2] = ctm::MmaScaleSelectorA<2, 1>::byte_id + idesc;
}
