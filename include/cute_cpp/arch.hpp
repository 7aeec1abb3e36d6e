// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp::arch: CuTeDSL's cute.arch names as thin forwarders over ctm. The tcgen05 ones
// (fence_view_async_tmem_load/store) live with the sm_100a primitives.
#include <cute_cpp/arch/barrier.hpp>   // barrier, barrier_arrive
#include <cute_cpp/arch/cluster.hpp>   // cluster_arrive, cluster_wait, cluster_idx, block_rank_in_cluster, ...
#include <cute_cpp/arch/fence.hpp>     // fence_view_async_shared, fence_proxy, fence_sync_restrict
#include <cute_cpp/arch/math.hpp>      // fma_packed_f32x2, cvt_f16x2_f32, warp_reduction_*, setmaxregister_*
#include <cute_cpp/arch/mbarrier.hpp>  // mbarrier_init, mbarrier_arrive, mbarrier_wait, ...
#include <cute_cpp/arch/thread.hpp>    // thread_idx, warp_idx, lane_idx, elect_one_sync, ...
