// A UMMA pipeline of zero stages.
// expected-error {{"pipeline\.stages.*\n.*\n.*Stages=0"}}
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
using Bad = cute_cpp::PipelineTmaUmma<0, 32768>;
static_assert(Bad::stages == 0);
