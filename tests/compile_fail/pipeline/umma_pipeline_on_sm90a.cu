// The UMMA pipelines release with tcgen05.commit, which sm_90a lacks: the error names it.
// cute-cpp-arch: 90a
// expected-error {{"ctm \[target\.sm100a-only\]: tcgen05\.commit"}}
#include <cute_cpp/pipeline/pipeline_tma_umma.hpp>
using Pipe = cute_cpp::PipelineTmaUmma<4, 32768>;
__global__ void kernel() {
  __shared__ Pipe::SharedStorage storage;
  Pipe const pipe{&storage};
  pipe.consumer_release(cute_cpp::make_pipeline_state<4>(cute_cpp::PipelineUserType::Consumer));
}
