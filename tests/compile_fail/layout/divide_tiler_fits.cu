// logical_divide of (6,4):(1,8) by a tile of 8: the tile runs past the first mode of 6.
// expected-error {{"cute-cpp \[layout\.divide\.tiler-fits\].*A=8LL, B=6LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using A = cc::Layout<cc::Shape<cc::C<6>, cc::C<4>>, cc::Stride<cc::C<1>, cc::C<8>>>;
using Bad = decltype(cc::logical_divide(A{}, cc::Layout<cc::C<8>, cc::C<1>>{}));
