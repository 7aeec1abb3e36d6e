// Packed slabs hold 16-bit pairs of a row-major C; an fp32 epilogue has none.
// expected-error {{"epilogue\.packed"}}
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cute_cpp/epilogue/fusion.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>
#include <cute_cpp/smem/smem_tile.hpp>
#include <cuda_bf16.h>
namespace cc = cute_cpp;
using bf16 = __nv_bfloat16;
using Mma = cc::sm90::WgmmaTiledMma<bf16, bf16, float, cc::sm90::AOperand<cc::SmemKMajor<bf16, 64, 64>>,
                                    cc::sm90::BOperand<cc::SmemKMajor<bf16, 128, 64>>, 1, 128>;
using Store = cc::sm90::EpilogueTmaStore<float, 128, cc::NamedBarriers<1, 2, 128>>;
__global__ void kernel(Store::Map const* map, float* out) {
  __shared__ Store::SharedStorage smem;
  Mma::FragmentC acc{};
  Store const store(smem, 0, int(threadIdx.x));
  auto const packed = store.pack_slab<Mma>(acc, 0, cc::epilogue::Identity{}, {*map, 0, 0, 1, 1});
  out[0] = float(packed.chunk[0].words[0]);
}
