// An accumulator pipeline whose epilogue never arrives.
// expected-error {{"pipeline\.arrivals.*\n.*\n.*ProducerArrivals=1, ConsumerArrivals=0"}}
#include <cute_cpp/pipeline/pipeline_umma_async.hpp>
using Bad = cute_cpp::PipelineUmmaAsync<2, 0>;
static_assert(Bad::stages == 2);
