// A 2-CTA (cta_group::2) pipeline in a cluster of one CTA: there is no pair to span.
// expected-error {{"pipeline\.umma\.pair-cluster.*\n.*\n.*CtaGroup=2, ClusterSize=1"}}
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
using Bad = cute_cpp::PipelineTmaUmma<4, 32768, /*CtaGroup=*/2, /*ClusterSize=*/1>;
static_assert(Bad::stages == 4);
