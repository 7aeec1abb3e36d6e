// A static rank-3 coordinate into a rank-2 layout.
// expected-error {{"cute-cpp \[layout\.coord\.congruent\].*CoordRank=3LL, ShapeRank=2LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::RowMajor<4, 8>{}(cc::C<1>{}, cc::C<2>{}, cc::C<0>{}));
