// A static stride that is not congruent to its shape.
// expected-error {{"cute-cpp \[layout\.congruent\]: a layout's shape and stride must have the same tree structure"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::make_layout(cc::Shape<cc::C<4>, cc::C<8>>{}, cc::C<1>{}));
