// get<1> of a plain integer: only get<0> exists.
// expected-error {{"layout\.get\.index"}}
#include <cute_cpp/layout.hpp>
constexpr int bad = cute_cpp::get<1>(5);
