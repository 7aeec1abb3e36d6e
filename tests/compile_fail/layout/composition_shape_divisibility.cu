// composition(A, B) where B's shape 8 runs past A's first mode of 6, which 8 does not divide.
// expected-error {{"cute-cpp \[layout\.composition\.shape-divisibility\].*RestShape=8LL, ModeShape=6LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using A = cc::Layout<cc::Shape<cc::C<6>, cc::C<4>>, cc::Stride<cc::C<1>, cc::C<8>>>;
using B = cc::Layout<cc::C<8>, cc::C<1>>;
using Bad = decltype(cc::composition(A{}, B{}));
