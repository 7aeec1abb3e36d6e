// kind::mxf8f6f4 without a scale type.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.idesc\.scale-type"}}
#include <ctm/sm100/tcgen05.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.kind = ctm::Tcgen05Kind::mxf8f6f4, .a = ctm::Tcgen05Type::e4m3, .b = ctm::Tcgen05Type::e4m3}>;
__global__ void k(std::uint32_t* out) { out[0] = bad; }
