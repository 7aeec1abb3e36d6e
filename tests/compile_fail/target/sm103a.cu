// sm_103a is a Blackwell target cute-cpp does not support; the gate names it.
// cute-cpp-flags: --generate-code=arch=compute_103a,code=sm_103a
// expected-error {{"cute-cpp \[target\.unsupported\]: this device pass targets sm_103;"}}
#include <cute_cpp/config.hpp>
__global__ void kernel() {}
