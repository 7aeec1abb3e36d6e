// The 2-CTA TMA load exists only on sm_100a: sm_90a rejects it by name.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-only\]: cp\.async\.bulk\.tensor\.4d\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes\.cta_group::2"}}
#include <ctm/common/cp_async_bulk_tensor.hpp>
__global__ void kernel(void const* tmap) {
  __shared__ alignas(1024) std::uint8_t tile[8192];
  ctm::cp_async_bulk_tensor_4d_shared_cluster_global_cta_group_2(tile, tmap, 0, 0, 0, 0, 0u);
}
