// layout<2> of a rank-2 layout.
// expected-error {{"cute-cpp \[layout\.mode\.index\].*Index=2LL, Rank=2LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::layout<2>(cc::RowMajor<4, 8>{}));
