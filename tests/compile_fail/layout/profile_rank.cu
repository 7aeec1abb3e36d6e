// coalesce by a profile of three modes on a rank-2 layout.
// expected-error {{"cute-cpp \[layout\.profile\.rank\].*ProfileRank=3LL, LayoutRank=2LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::coalesce(cc::RowMajor<4, 8>{}, cc::Tuple<cc::C<1>, cc::C<1>, cc::C<1>>{}));
