// cute_cpp::arch::fence_view_async_tmem_load is tcgen05.wait::ld: sm_90a rejects it by name.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.wait"}}
#include <cute_cpp/arch.hpp>
__global__ void kernel() { cute_cpp::arch::fence_view_async_tmem_load(); }
