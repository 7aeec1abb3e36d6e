// kind::i8 cannot negate.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.idesc\.negate"}}
#include <ctm/sm100/tcgen05.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.kind = ctm::Tcgen05Kind::i8, .a = ctm::Tcgen05Type::s8, .b = ctm::Tcgen05Type::s8, .d = ctm::Tcgen05DType::s32, .negate_b = true}>;
__global__ void k(std::uint32_t* out) { out[0] = bad; }
