// ceil_div of a rank-1 tuple by a rank-2 one: the divisor may not have more modes.
// expected-error {{"layout\.tuple\.rank.*ceil_div"}}
#include <cute_cpp/layout.hpp>
using namespace cute_cpp;
constexpr auto bad = ceil_div(make_shape(C<100>{}), make_shape(C<32>{}, C<16>{}));
