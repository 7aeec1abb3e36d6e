// 48 columns: tcgen05.alloc takes powers of two from 32 to 512.
// cute-cpp-arch: 100a
// expected-error {{"tmem\.alloc-columns.*Columns=48"}}
#include <cute_cpp/tmem/tmem_allocator.hpp>
using Bad = cute_cpp::sm100::TmemAllocator<48>;
static_assert(Bad::columns == 48);
