// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// verify_plan<Plan>(): the whole-kernel verifier. A plan is any struct that describes a kernel;
// verify_plan checks every rule whose inputs the plan declares (found with requires-expressions,
// so a plan declares only what its kernel has):
//   threads                                 plan.threads
//   smem_bytes (a constant)                 smem.budget, for the target of the device pass (the
//                                           host pass checks sm_90a's budget)
//   cluster_size [, non_portable_cluster]   barrier.cluster-shape
//   Pipeline::consumer_arrivals, consumer_warps [, cluster_reach]
//                                           pipeline.consumers, plan.consumer-warps
// The per-type rules (TMA boxes, wgmma shapes, pipeline bytes) fire where those types are formed;
// verify_plan adds what only the whole plan can tell. Use: static_assert(verify_plan<Plan>()).
// CuTeDSL has no equivalent: its checks run while tracing, at run time.
#include <cute_cpp/config.hpp>
#include <cute_cpp/diag/plan.hpp>

#include <cstddef>
#include <type_traits>

namespace cute_cpp {

/// Per-block shared memory on a target, in bytes (sm_90a/sm_100a: 227 KB; sm_120a: 99 KB).
CUTE_CPP_HD constexpr std::size_t smem_budget_bytes(ctm::Target target) {
  return target == ctm::Target::sm120a ? std::size_t{101376} : std::size_t{232448};
}

namespace detail {
template <class Plan, ctm::Target T>
CUTE_CPP_HD constexpr bool smem_fits() {
  constexpr int arch = T == ctm::Target::sm90a ? 90 : T == ctm::Target::sm100a ? 100 : 120;
  return diag::smem_budget<std::size_t(Plan::smem_bytes), smem_budget_bytes(T), arch>::ok;
}
}  // namespace detail

/// The plan of a kernel whose only static facts are its block size and shared memory.
template <int Threads, std::size_t SmemBytes = 0>
struct KernelPlan {
  static constexpr int threads = Threads;
  static constexpr std::size_t smem_bytes = SmemBytes;
};

/// True when every rule the plan's members let it check holds; otherwise a compile error naming
/// the rule and the values.
template <class Plan>
CUTE_CPP_HD constexpr bool verify_plan() {
  if constexpr (requires { Plan::threads; }) {
    static_assert(diag::plan_threads<int(Plan::threads)>::ok);
  }
  if constexpr (requires { requires std::is_integral_v<std::remove_cvref_t<decltype(Plan::smem_bytes)>>; }) {
    if constexpr (ctm::current_target == ctm::Target::host) {
      // NOTE: the host pass does not know which target will run the kernel: a plan whose TU
      // is built for sm_120a must fit 99 KB, which the device pass of that TU checks.
      static_assert(detail::smem_fits<Plan, ctm::Target::sm90a>());
    } else {
      static_assert(detail::smem_fits<Plan, ctm::current_target>());
    }
  }
  if constexpr (requires { Plan::cluster_size; }) {
    constexpr bool non_portable = [] {
      if constexpr (requires { Plan::non_portable_cluster; }) return bool(Plan::non_portable_cluster);
      else return false;
    }();
    static_assert(diag::cluster_shape<int(Plan::cluster_size), non_portable>::ok);
  }
  if constexpr (requires {
                  Plan::Pipeline::consumer_arrivals;
                  Plan::consumer_warps;
                }) {
    constexpr int reach = [] {
      if constexpr (requires { Plan::cluster_reach; }) return int(Plan::cluster_reach);
      else return 1;
    }();
    static_assert(diag::pipeline_consumers<int(Plan::Pipeline::consumer_arrivals), int(Plan::consumer_warps),
                                           reach>::ok);
    if constexpr (requires { Plan::threads; }) {
      static_assert(diag::plan_consumer_warps<int(Plan::consumer_warps), int(Plan::threads)>::ok);
    }
  }
  return true;
}

}  // namespace cute_cpp
