// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// run_gemm_auto's definition: the tile heuristic's (or the tuner's) dispatch over one element
// type's and layout's TileFamily. Each gemm_auto_*_sm90.cu instantiates it for one pair, and with
// it the family's plans.
#include "gemm_sm90.cuh"
#include "gemm_tuner.hpp"
#include "plans.hpp"

#include <algorithm>

namespace cute_cpp::examples {

template <class T, OperandMajorMode MA, OperandMajorMode MB>
void run_gemm_auto(AutoGemmArguments<T> const& args, cudaStream_t stream) {
  if (gemm_tuning_enabled()) return GemmTuner::process().run<MA, MB>(args, stream);
  // Checked before the plan choice, which asks the device for its SM count.
  check_gemm_arguments(args, MA, MB, LayoutEnum::RowMajor, false);
  with_chosen_plan<MA, MB>(args, [&]<class P>(std::type_identity<P>, auto const& a, GemmChoice const& c) {
    run_gemm<P>(cut_for_run<P>(a, c), stream);
  });
}

template <class T, OperandMajorMode MA, OperandMajorMode MB>
std::size_t gemm_auto_workspace_bytes(AutoGemmArguments<T> const& args) {
  auto const bytes = [&]<class P>(std::type_identity<P>, auto const& a) { return gemm_workspace_bytes<P>(a); };
  if (!gemm_tuning_enabled())
    return with_chosen_plan<MA, MB>(args, [&]<class P>(std::type_identity<P>, auto const& a, GemmChoice const& c) {
      return gemm_workspace_bytes<P>(cut_as<P>(a, c));
    });
  // Tuned, the heuristic's choice or any tile under the heuristic's cut may run: the most any needs.
  std::size_t most = with_chosen_plan<MA, MB>(args, [&]<class P>(std::type_identity<P>, auto const& a, GemmChoice const& c) {
    return gemm_workspace_bytes<P>(cut_as<P>(a, c));
  });
  for (auto const& [tile, name] : gemm_tile_names) most = std::max(most, with_tile_plan<MA, MB>(tile, args, bytes));
  return most;
}

}  // namespace cute_cpp::examples
