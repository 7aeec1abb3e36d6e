// A 12-CTA cluster needs the non-portable cluster size flag.
// expected-error {{"barrier\.cluster-shape.*ClusterSize=12, NonPortable=false"}}
#include <cute_cpp/diag/verify_plan.hpp>
struct Plan {
  static constexpr int threads = 128;
  static constexpr int cluster_size = 12;
};
static_assert(cute_cpp::verify_plan<Plan>());
