// Leading-dimension mode 2 does not exist.
// A failed check during constant evaluation is a compile error at the line that names
// the rule.
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.smem-desc\.lbo-mode"}}
#include <ctm/sm100/tcgen05_desc.hpp>
constexpr std::uint64_t bad = ctm::tcgen05_smem_desc({.lbo_mode = static_cast<ctm::Tcgen05LboMode>(2)});
__global__ void k(unsigned long long* out) { out[0] = bad; }
