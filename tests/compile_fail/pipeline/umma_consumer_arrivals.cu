// A 2x2 cluster of CTA pairs has two MMA-issuing CTAs: three commits can never release a stage.
// expected-error {{"pipeline\.umma\.consumer-arrivals.*\n.*\n.*ConsumerArrivals=3, CtaGroup=2, ClusterSize=4"}}
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
using Bad = cute_cpp::PipelineTmaUmma<4, 32768, /*CtaGroup=*/2, /*ClusterSize=*/4, /*ConsumerArrivals=*/3>;
static_assert(Bad::stages == 4);
