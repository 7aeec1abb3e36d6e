// upcast<4> of a layout whose stride-1 extent is 6: 4 elements per new element do not divide 6.
// expected-error {{"cute-cpp \[layout\.recast\.divisibility\].*A=6LL, B=4LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::upcast<4>(cc::Layout<cc::Shape<cc::C<6>, cc::C<4>>, cc::Stride<cc::C<1>, cc::C<6>>>{}));
