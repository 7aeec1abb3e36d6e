// A cluster launch control scheduler for clusters of 32 CTAs: a cluster holds at most 16.
// expected-error {{"sched\.clc\.cluster-size.*\n.*\n.*ClusterSize=32"}}
#include <cute_cpp/sched/clc_persistent_tile_scheduler.hpp>
using Bad = cute_cpp::ClcDynamicPersistentTileScheduler<32>;
static_assert(Bad::cluster_size == 32);
