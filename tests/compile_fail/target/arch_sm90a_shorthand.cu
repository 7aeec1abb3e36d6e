// -arch=sm_90a also runs a plain compute_90 pass, which cute-cpp rejects with the right flag.
// cute-cpp-flags: -arch=sm_90a
// expected-error {{"targets sm_90 \(a plain compute_90 pass.*--generate-code=arch=compute_90a,code=sm_90a"}}
#include <ctm/target.hpp>
__global__ void kernel() {}
