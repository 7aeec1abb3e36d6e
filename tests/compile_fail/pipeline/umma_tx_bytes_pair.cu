// 2 x 512 KiB per stage: the pair's total arms one barrier, whose transaction count is below 2^20.
// expected-error {{"pipeline\.umma\.tx-bytes.*\n.*\n.*TxBytesPerCta=524288U, CtaGroup=2"}}
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
using Bad = cute_cpp::PipelineTmaUmma<2, 524288, /*CtaGroup=*/2>;
static_assert(Bad::stages == 2);
