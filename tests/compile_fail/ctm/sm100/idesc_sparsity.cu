// A sparsity selector on a dense descriptor.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.idesc\.sparsity"}}
#include <ctm/sm100/tcgen05_desc.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_idesc_v<ctm::Tcgen05InstrDesc{.kind = ctm::Tcgen05Kind::f16, .sparsity_selector = 2}>;
__global__ void k(unsigned* out) { out[0] = bad; }
