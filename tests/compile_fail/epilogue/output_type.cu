// The TMA-store epilogue writes 16-bit or 32-bit outputs, not double.
// expected-error {{"epilogue\.output-type"}}
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
using Bad = cute_cpp::sm90::EpilogueTmaStore<double, 128, 1>;
static_assert(Bad::chunks > 0);
