// A static coordinate 8 in a mode of extent 8.
// expected-error {{"cute-cpp \[layout\.coord\.out-of-range\].*Coordinate=8LL, Extent=8LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::RowMajor<4, 8>{}(cc::C<1>{}, cc::C<8>{}));
