// Swizzle<3, 4, 2>: a shift of 2 cannot move 3 bits without overlap.
// expected-error {{"cute-cpp \[layout\.swizzle\.params\].*Bits=3LL, Shift=2LL"}}
#include <cute_cpp/layout/swizzle.hpp>
namespace cc = cute_cpp;
using Bad = cc::ComposedLayout<cc::Swizzle<3, 4, 2>, 0, cc::RowMajor<8, 64>>;
static_assert(Bad::swizzle_type::bits == 3);
