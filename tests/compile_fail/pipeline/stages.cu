// A pipeline of zero stages.
// expected-error {{"pipeline\.stages.*\n.*\n.*Stages=0"}}
#include <cute_cpp/pipeline/pipeline_state.hpp>
cute_cpp::PipelineState<0> bad;
