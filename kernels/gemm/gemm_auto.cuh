// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// run_gemm_auto's definition: the tile heuristic's (or the tuner's) dispatch over one element
// type's and layout's TileFamily, and run_gemm_choice; each with its _unchecked twin for arguments
// already checked. Each gemm_auto_*_sm90.cu instantiates them for one pair, and with them the
// family's plans (reached from other translation units through these entry points only).
#include <cute_cpp/kernels/gemm/gemm_sm90.cuh>
#include <cute_cpp/kernels/gemm/gemm_tuner.hpp>
#include <cute_cpp/kernels/gemm/plans.hpp>

#include <algorithm>

namespace cute_cpp::kernels {

template <class T, OperandMajorMode MA, OperandMajorMode MB>
void run_gemm_auto(AutoGemmArguments<T> const& args, cudaStream_t stream) {
  // Checked once, before the tuner's set-up or the plan choice asks the device anything.
  check_gemm_arguments(args, MA, MB, LayoutEnum::RowMajor, false);
  run_gemm_auto_unchecked<T, MA, MB>(args, stream);
}

template <class T, OperandMajorMode MA, OperandMajorMode MB>
void run_gemm_auto_unchecked(AutoGemmArguments<T> const& args, cudaStream_t stream) {
  if (gemm_tuning_enabled()) return GemmTuner::process().run_unchecked<MA, MB>(args, stream);
  run_gemm_choice_unchecked<T, MA, MB>(chosen_gemm_plan<MA, MB>(args), args, stream);
}

template <class T, OperandMajorMode MA, OperandMajorMode MB>
std::size_t gemm_auto_workspace_bytes(AutoGemmArguments<T> const& args) {
  std::size_t const chosen = gemm_choice_workspace_bytes<T, MA, MB>(chosen_gemm_plan<MA, MB>(args), args);
  if (!gemm_tuning_enabled()) return chosen;
  // Tuned, the heuristic's choice or any tile under the heuristic's cut may run: the most any needs.
  std::size_t most = chosen;
  for (auto const& [tile, name] : gemm_tile_names)
    most = std::max(most, gemm_choice_workspace_bytes<T, MA, MB>(GemmChoice{tile}, args));
  return most;
}

template <class T, OperandMajorMode MA, OperandMajorMode MB>
void run_gemm_choice(GemmChoice const& c, AutoGemmArguments<T> const& args, cudaStream_t stream) {
  with_tile_plan<MA, MB>(c.tile, args, [&]<class P>(std::type_identity<P>, auto const& a) {
    run_gemm<P>(cut_for_run<P>(a, c), stream);
  });
}

template <class T, OperandMajorMode MA, OperandMajorMode MB>
void run_gemm_choice_unchecked(GemmChoice const& c, AutoGemmArguments<T> const& args, cudaStream_t stream) {
  with_tile_plan<MA, MB>(c.tile, args, [&]<class P>(std::type_identity<P>, auto const& a) {
    run_gemm_unchecked<P>(cut_for_run<P>(a, c), stream);
  });
}

template <class T, OperandMajorMode MA, OperandMajorMode MB>
std::size_t gemm_choice_workspace_bytes(GemmChoice const& c, AutoGemmArguments<T> const& args) {
  return with_tile_plan<MA, MB>(c.tile, args, [&]<class P>(std::type_identity<P>, auto const& a) {
    return gemm_workspace_bytes<P>(cut_as<P>(a, c));
  });
}

}  // namespace cute_cpp::kernels
