// 40 TMA bytes per CTA and stage: TMA moves multiples of 16.
// expected-error {{"pipeline\.umma\.tx-bytes.*\n.*\n.*TxBytesPerCta=40U, CtaGroup=1"}}
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
using Bad = cute_cpp::PipelineTmaUmma<4, 40>;
static_assert(Bad::stages == 4);
