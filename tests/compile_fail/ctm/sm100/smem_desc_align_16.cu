// A start address 8 bytes past a 16-byte boundary, in a constant expression.
// A failed check during constant evaluation is a compile error at the line that names
// the rule.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.smem-desc\.align-16"}}
#include <ctm/sm100/tcgen05_desc.hpp>
constexpr std::uint64_t bad = ctm::tcgen05_smem_desc({.start_address = 0x408});
__global__ void k(unsigned long long* out) { out[0] = bad; }
