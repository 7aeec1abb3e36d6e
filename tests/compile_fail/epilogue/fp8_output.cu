// An FP8 output is quantized by 1 x 128 blocks of a row: a tile 64 columns wide has no whole block.
// expected-error {{"epilogue\.fp8-output"}}
#include <cute_cpp/epilogue/sm90_tma_store.hpp>
#include <cute_cpp/pipeline/named_barrier.hpp>
using Bad = cute_cpp::sm90::EpilogueTmaStore<__nv_fp8_e4m3, 64, cute_cpp::NamedBarriers<1, 2, 128>>;
static_assert(Bad::chunks > 0);
