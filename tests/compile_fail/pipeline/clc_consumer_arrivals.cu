// A CLC response ring that nobody releases: its producer would wait forever on the first reuse.
// expected-error {{"pipeline\.clc\.consumer-arrivals.*\n.*\n.*ConsumerArrivals=0"}}
#include <cute_cpp/pipeline/pipeline_clc_fetch_async.hpp>
using Bad = cute_cpp::PipelineClcFetchAsync<2, 0>;
static_assert(Bad::stages == 2);
