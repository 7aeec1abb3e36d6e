// complement of (2,2):(1,1), which maps two coordinates to offset 1.
// expected-error {{"cute-cpp \[layout\.complement\.injective\].*Stride=1LL, Covered=2LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::complement(cc::Layout<cc::Shape<cc::C<2>, cc::C<2>>, cc::Stride<cc::C<1>, cc::C<1>>>{}));
