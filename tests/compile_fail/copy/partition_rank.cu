// partition_S of a rank-3 tensor: a TiledCopy partitions (M,N) tiles.
// expected-error {{"copy\.partition\.rank"}}
#include <cute_cpp/copy.hpp>
#include <cute_cpp/tensor.hpp>
namespace cc = cute_cpp;
using Copy = cc::TiledCopy<cc::CopyAtom<cc::CopyUniversalOp<16>, float>,
                           cc::Layout<cc::Shape<cc::C<16>, cc::C<8>>, cc::Stride<cc::C<8>, cc::C<1>>>,
                           cc::Layout<cc::Shape<cc::C<1>, cc::C<4>>, cc::Stride<cc::C<0>, cc::C<1>>>>;
__global__ void kernel(float* p) {
  auto t = cc::make_tensor(p, cc::make_layout(cc::make_shape(cc::C<16>{}, cc::C<32>{}, cc::C<2>{})));
  auto s = Copy::get_slice(threadIdx.x).partition_S(t);
  (void)s;
}
