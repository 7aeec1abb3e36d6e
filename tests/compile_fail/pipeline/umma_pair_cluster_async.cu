// The accumulator pipeline of a CTA pair needs the pair in one cluster: a cluster of 3 splits one.
// expected-error {{"pipeline\.umma\.pair-cluster.*\n.*\n.*CtaGroup=2, ClusterSize=3"}}
#include <cute_cpp/pipeline/pipeline_umma_async.hpp>
using Bad = cute_cpp::PipelineUmmaAsync<2, 4, /*CtaGroup=*/2, /*ClusterSize=*/3>;
static_assert(Bad::stages == 2);
