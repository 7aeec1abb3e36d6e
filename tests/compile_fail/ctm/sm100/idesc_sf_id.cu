// kind::mxf4nvf4 with scale-factor id 1 (it takes 0 or 2).
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.idesc\.sf-id"}}
#include <ctm/sm100/tcgen05.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.kind = ctm::Tcgen05Kind::mxf4nvf4, .a = ctm::Tcgen05Type::e2m1, .b = ctm::Tcgen05Type::e2m1, .scale = ctm::Tcgen05ScaleType::ue4m3, .sfa_id = 1}>;
__global__ void k(std::uint32_t* out) { out[0] = bad; }
