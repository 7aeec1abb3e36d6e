// bf16 operands under kind::tf32.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.idesc\.type-for-kind"}}
#include <ctm/sm100/tcgen05.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.kind = ctm::Tcgen05Kind::tf32, .a = ctm::Tcgen05Type::bf16, .b = ctm::Tcgen05Type::bf16}>;
__global__ void k(std::uint32_t* out) { out[0] = bad; }
