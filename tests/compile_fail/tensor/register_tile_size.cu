// A register tile of no values.
// expected-error {{"tensor\.register-tile\.size"}}
#include <cute_cpp/tensor.hpp>
cute_cpp::RegisterTile<float, 0> bad;
