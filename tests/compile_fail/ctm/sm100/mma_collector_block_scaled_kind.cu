// kind::mxf4 through the plain collector form (it needs scale factors).
// cute-cpp-arch: 100a
// expected-error {{"tcgen05\.mma\.kind"}}
#include <ctm/sm100/tcgen05.hpp>
__global__ void k(std::uint32_t d, std::uint64_t a, std::uint64_t b, std::uint32_t id) {
  ctm::tcgen05_mma_collector_a<ctm::Tcgen05Kind::mxf4, ctm::Tcgen05CollectorA::fill>(d, a, b, id, true);
}
