// a bf16 x bf16 product accumulated in f16.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.idesc\.d-type"}}
#include <ctm/sm100/tcgen05.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.kind = ctm::Tcgen05Kind::f16, .d = ctm::Tcgen05DType::f16}>;
__global__ void k(std::uint32_t* out) { out[0] = bad; }
