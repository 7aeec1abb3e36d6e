// cp.async (CopyG2SOp) moves 4, 8 or 16 bytes, not 2.
// expected-error {{"copy\.atom\.bytes.*CopyG2SOp moves 4, 8 or 16 bytes"}}
#include <cute_cpp/copy.hpp>
using Bad = cute_cpp::CopyG2SOp<2>;
static_assert(sizeof(Bad) > 0);
