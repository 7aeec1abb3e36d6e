// A stride byte offset of 256 KiB does not fit the 14-bit field.
// A failed check during constant evaluation is a compile error at the line that names
// the rule.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.smem-desc\.range"}}
#include <ctm/sm100/tcgen05_desc.hpp>
constexpr std::uint64_t bad = ctm::tcgen05_smem_desc({.sbo_bytes = 1u << 18});
__global__ void k(unsigned long long* out) { out[0] = bad; }
