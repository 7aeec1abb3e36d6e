// The TMA-store epilogue writes 16-bit or 32-bit outputs, not double.
// expected-error {{"epilogue\.output-type"}}
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>
using Bad = cute_cpp::sm90::EpilogueTmaStore<double, 128, cute_cpp::NamedBarriers<1, 2, 128>>;
static_assert(Bad::chunks > 0);
