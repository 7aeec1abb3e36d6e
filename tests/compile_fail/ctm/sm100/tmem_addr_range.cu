// Tensor memory has 128 lanes.
// A failed check during constant evaluation is a compile error at the line that names
// the rule.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.tmem-addr\.range"}}
#include <ctm/sm100/tcgen05_desc.hpp>
constexpr std::uint32_t bad = ctm::tcgen05_tmem_addr(128, 0);
__global__ void k(unsigned long long* out) { out[0] = bad; }
