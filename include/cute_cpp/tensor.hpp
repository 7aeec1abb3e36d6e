// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/tensor.hpp: tensor views, register tiles, thread and row reductions, shared-memory carving.
#include <cute_cpp/tensor/register_tile.hpp>  // RegisterTile (TensorSSA)
#include <cute_cpp/tensor/tensor.hpp>         // Tensor, TensorMut, make_tensor, views, RmemTensor
#include <cute_cpp/tensor/reduce.hpp>         // warp_reduce, block_reduce (device)
#include <cute_cpp/tensor/row_config.hpp>     // RowConfig, row_block_threads, row_slots, row_max_cluster
#include <cute_cpp/tensor/row_walk.hpp>       // RowWalk, RowPlace, row_place, for_each_round (device)
#include <cute_cpp/tensor/row_reduce.hpp>     // RowShared, RowKernelPlan, row_start, row_reduce (device)
#include <cute_cpp/smem/allocator.hpp>        // SmemAllocator, SmemArray
