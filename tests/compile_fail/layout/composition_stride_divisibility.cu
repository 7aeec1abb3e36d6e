// composition(A, B) where B's stride 3 and A's first mode 4 do not divide one another.
// expected-error {{"cute-cpp \[layout\.composition\.stride-divisibility\].*ModeShape=4LL, RestStride=3LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using A = cc::Layout<cc::Shape<cc::C<4>, cc::C<4>>, cc::Stride<cc::C<1>, cc::C<8>>>;
using B = cc::Layout<cc::C<2>, cc::C<3>>;
using Bad = decltype(cc::composition(A{}, B{}));
