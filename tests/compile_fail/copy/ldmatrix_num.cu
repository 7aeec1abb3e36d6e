// ldmatrix loads 1, 2 or 4 8x8 matrices, not 3.
// expected-error {{"copy\.atom\.ldmatrix-num"}}
#include <cute_cpp/copy.hpp>
using Bad = cute_cpp::LdMatrix8x8x16bOp<3>;
static_assert(sizeof(Bad) > 0);
