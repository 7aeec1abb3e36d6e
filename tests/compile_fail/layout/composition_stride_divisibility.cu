// composition(A, B) where B's stride 6 and A's first mode 8 do not divide one another and B
// (4 elements) does not end inside that mode.
// expected-error {{"cute-cpp \[layout\.composition\.stride-divisibility\].*ModeShape=8LL, RestStride=6LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using A = cc::Layout<cc::Shape<cc::C<8>, cc::C<4>>, cc::Stride<cc::C<1>, cc::C<16>>>;
using B = cc::Layout<cc::C<4>, cc::C<6>>;
using Bad = decltype(cc::composition(A{}, B{}));
