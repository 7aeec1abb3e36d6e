// 40 transaction bytes per stage: TMA moves multiples of 16.
// expected-error {{"pipeline\.tx-bytes.*\n.*\n.*TxBytes=40"}}
#include <cute_cpp/pipeline/pipeline_tma_async.hpp>
using Bad = cute_cpp::PipelineTmaAsync<2, 8, 40>;
static_assert(Bad::stages == 2);
