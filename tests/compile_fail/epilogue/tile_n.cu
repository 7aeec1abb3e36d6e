// 96 bf16 columns are not a whole number of 64-column (128-byte) chunks.
// expected-error {{"epilogue\.tile-n"}}
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cuda_bf16.h>
using Bad = cute_cpp::sm90::EpilogueTmaStore<__nv_bfloat16, 96, 1>;
static_assert(Bad::chunks > 0);
