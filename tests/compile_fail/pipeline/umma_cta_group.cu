// tcgen05 MMAs run on one CTA or a CTA pair: a group of 4 does not exist.
// expected-error {{"pipeline\.umma\.cta-group.*\n.*\n.*CtaGroup=4, ClusterSize=4"}}
#include <cute_cpp/pipeline/pipeline_umma_async.hpp>
using Bad = cute_cpp::PipelineUmmaAsync<2, 4, /*CtaGroup=*/4, /*ClusterSize=*/4>;
static_assert(Bad::stages == 2);
