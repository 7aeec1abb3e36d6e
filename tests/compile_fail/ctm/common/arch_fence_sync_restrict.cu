// fence_sync_restrict takes cute_cpp::arch::Acquire or Release: any other type is rejected.
// cute-cpp-arch: 90a
// expected-error {{"cute-cpp \[arch\.fence-sync-restrict\]"}}
#include <cute_cpp/arch.hpp>
__global__ void kernel() { cute_cpp::arch::fence_sync_restrict<int>(); }
