// logical_divide of a rank-1 layout by a rank-2 tiler.
// expected-error {{"cute-cpp \[layout\.divide\.tiler-rank\].*TilerRank=2LL, LayoutRank=1LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::zipped_divide(cc::Layout<cc::C<64>, cc::C<1>>{}, cc::Tile<cc::C<8>, cc::C<8>>{}));
