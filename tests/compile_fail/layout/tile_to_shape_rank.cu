// tile_to_shape of a rank-2 atom to a rank-1 shape.
// expected-error {{"cute-cpp \[layout\.tile-to-shape\.rank\].*BlockRank=2LL, TargetRank=1LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::tile_to_shape(cc::RowMajor<8, 64>{}, cc::Shape<cc::C<512>>{}));
