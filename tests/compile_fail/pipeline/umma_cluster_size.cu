// A cluster holds at most 16 CTAs.
// expected-error {{"pipeline\.umma\.cluster-size.*\n.*\n.*CtaGroup=2, ClusterSize=32"}}
#include <cute_cpp/pipeline/pipeline_async_umma.hpp>
using Bad = cute_cpp::PipelineAsyncUmma<2, 4, /*CtaGroup=*/2, /*ClusterSize=*/32>;
static_assert(Bad::stages == 2);
