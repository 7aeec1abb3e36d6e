// tile_to_shape of an 8x64 atom to 100 rows: 8 does not divide 100.
// expected-error {{"cute-cpp \[layout\.tile-to-shape\.divides\].*TargetMode=100LL, BlockMode=8LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::tile_to_shape(cc::RowMajor<8, 64>{}, cc::Shape<cc::C<100>, cc::C<64>>{}));
