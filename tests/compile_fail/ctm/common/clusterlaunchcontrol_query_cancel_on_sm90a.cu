// query_cancel needs sm_100 or later: sm_90a rejects it by name.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-sm120a-only\]: clusterlaunchcontrol\.query_cancel"}}
#include <ctm/common/clusterlaunchcontrol.hpp>
__global__ void kernel(std::uint64_t const* r, std::uint32_t* out) {
  out[0] = ctm::clusterlaunchcontrol_query_cancel_get_first_ctaid_x(r[0], r[1]);
}
