// Any cute-cpp header compiled for sm_80 is rejected in the device pass, naming the target.
// cute-cpp-flags: -arch=sm_80
// expected-error {{"cute-cpp \[target\.unsupported\]: this device pass targets sm_80"}}
#include <cute_cpp/config.hpp>
__global__ void kernel() {}
