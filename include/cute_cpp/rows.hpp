// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/rows.hpp: the row kernels' framework in one room (kernels/rows builds rmsnorm, softmax,
// reduce and swiglu on it): a row's configuration and host plan, the walk of a row's vectors, the
// register tiles a thread holds, block and cluster reductions, and rows staged in shared memory.
#include <cute_cpp/rows/config.hpp>  // RowConfig, row_block_threads, row_slots, row_max_cluster
#include <cute_cpp/rows/plan.hpp>    // plan_rows, dispatch_rows (host)
#include <cute_cpp/rows/walk.hpp>    // RowWalk, RowPlace, row_place, for_each_round (device)
#include <cute_cpp/rows/tiles.hpp>   // the row's register tiles
#include <cute_cpp/rows/reduce.hpp>  // RowShared, RowKernelPlan, row_start, row_reduce (device)
#include <cute_cpp/rows/stage.hpp>   // rows staged in shared memory by bulk copies (device)
