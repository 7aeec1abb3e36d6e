// complement of an identity layout: its ScaledBasis strides are coordinates, not offsets.
// expected-error {{"cute-cpp \[layout\.basis\.unsupported\].*Axis=0LL, Unused=0LL"}}
#include <cute_cpp/layout/layout.hpp>
namespace cc = cute_cpp;
using Bad = decltype(cc::complement(cc::make_identity_layout(cc::Shape<cc::C<4>, cc::C<8>>{})));
