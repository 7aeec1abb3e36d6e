// A base offset without swizzling.
// A failed check during constant evaluation is a compile error at the line that names
// the rule.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.smem-desc\.base-offset"}}
#include <ctm/sm100/tcgen05_desc.hpp>
constexpr std::uint64_t bad = ctm::tcgen05_smem_desc({.base_offset = 2});
__global__ void k(unsigned long long* out) { out[0] = bad; }
