// 8 bf16 columns are 16 bytes: narrower than the smallest swizzled chunk (32 bytes).
// expected-error {{"epilogue\.tile-n"}}
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cuda_bf16.h>
using Bad = cute_cpp::sm90::EpilogueTmaStore<__nv_bfloat16, 8, cute_cpp::NamedBarriers<1, 2, 128>>;
static_assert(Bad::chunks > 0);
