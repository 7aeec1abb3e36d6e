// A block of 1056 threads is over the 1024-thread limit.
// expected-error {{"plan\.threads.*Threads=1056"}}
#include <cute_cpp/diag/verify_plan.hpp>
struct Plan {
  static constexpr int threads = 1056;
};
static_assert(cute_cpp::verify_plan<Plan>());
