// left_inverse of (2,2):(2,3): stride 3 is not a multiple of the smaller stride 2.
// expected-error {{"cute-cpp \[layout\.left-inverse\.divisibility\].*Stride=3LL, Covered=2LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::left_inverse(cc::Layout<cc::Shape<cc::C<2>, cc::C<2>>, cc::Stride<cc::C<2>, cc::C<3>>>{}));
