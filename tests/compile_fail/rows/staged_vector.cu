// A staged row is read in 16-byte vectors (the bulk copy's sizes and addresses): scalar bf16
// elements (V = 1, 2 bytes) cannot be staged.
// expected-error {{"rows\.staged-vector.*\n.*\n.*V=1, ElemBytes=2"}}
#include <cute_cpp/rows/stage.hpp>
#include <cuda_bf16.h>
namespace cc = cute_cpp;
using Config = cc::RowConfig<1, 256, true, 4, true>;
__global__ void kernel(__nv_bfloat16* smem_rows) {
  __shared__ cc::RowShared shared;
  cc::RowPlace const at = cc::row_place<Config>(1024);
  cc::RowStage<__nv_bfloat16, Config> const stage(smem_rows, shared, at, 1);
  smem_rows[0] = stage.buffer(0, 0)[0];
}
