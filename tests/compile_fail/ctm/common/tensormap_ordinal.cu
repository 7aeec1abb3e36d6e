// tensormap.replace global_stride takes ordinals 0..3: 4 is rejected.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[tensormap\.ordinal\]"}}
#include <ctm/common/tensormap.hpp>
__global__ void kernel(std::uint32_t* out, float const* in) {
  __shared__ alignas(128) std::uint8_t tmap[128];
  ctm::tensormap_replace_tile_global_stride_shared_cta<4>(tmap, 1024u);
}
