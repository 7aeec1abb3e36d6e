// M = 96 is no tcgen05.mma shape; the error names the values.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.idesc\.shape.*M=96"}}
#include <ctm/sm100/tcgen05.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.kind = ctm::Tcgen05Kind::f16, .m = 96, .n = 128}>;
__global__ void k(std::uint32_t* out) { out[0] = bad; }
