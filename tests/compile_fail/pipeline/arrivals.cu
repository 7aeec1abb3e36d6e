// A thread-fed pipeline with no producer arrivals would never fill.
// expected-error {{"pipeline\.arrivals.*ProducerArrivals=0, ConsumerArrivals=32"}}
#include <cute_cpp/pipeline/pipeline_async.hpp>
using Bad = cute_cpp::PipelineAsync<2, 0, 32>;
static_assert(Bad::stages == 2);
