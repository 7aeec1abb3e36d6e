// A static layout with more nodes than DynTuple::capacity (32), given to the algebra.
// expected-error {{"cute-cpp \[layout\.capacity\].*Capacity=32LL, Needed=33LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using S8 = cc::Shape<cc::C<2>, cc::C<2>, cc::C<2>, cc::C<2>, cc::C<2>, cc::C<2>, cc::C<2>, cc::C<2>>;
using Big = cc::Shape<S8, S8, S8, S8>;
using Bad = decltype(cc::coalesce(cc::Layout<Big>{}));
