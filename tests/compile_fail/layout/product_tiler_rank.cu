// logical_product of a rank-1 layout by a rank-2 tiler.
// expected-error {{"cute-cpp \[layout\.product\.tiler-rank\].*TilerRank=2LL, LayoutRank=1LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::logical_product(cc::Layout<cc::C<4>, cc::C<1>>{}, cc::Tile<cc::C<2>, cc::C<2>>{}));
