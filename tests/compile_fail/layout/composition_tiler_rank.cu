// composition with a tiler of three modes on a rank-2 layout.
// expected-error {{"cute-cpp \[layout\.composition\.tiler-rank\].*TilerRank=3LL, LayoutRank=2LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::composition(cc::RowMajor<8, 8>{}, cc::Tile<cc::C<2>, cc::C<2>, cc::C<2>>{}));
