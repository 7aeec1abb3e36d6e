// kind::mxf4 with an MN-major A.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.idesc\.major"}}
#include <ctm/sm100/tcgen05.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.kind = ctm::Tcgen05Kind::mxf4, .a = ctm::Tcgen05Type::e2m1, .b = ctm::Tcgen05Type::e2m1, .a_major = ctm::Tcgen05Major::mn, .scale = ctm::Tcgen05ScaleType::ue8m0}>;
__global__ void k(std::uint32_t* out) { out[0] = bad; }
