// The run-time encoder in a constant expression: N = 12 is no tcgen05.mma shape.
// A failed check during constant evaluation is a compile error at the line that names
// the rule.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.idesc\.shape"}}
#include <ctm/sm100/tcgen05_desc.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_idesc({.kind = ctm::Tcgen05Kind::f16, .m = 128, .n = 12});
__global__ void k(unsigned long long* out) { out[0] = bad; }
