// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/tensor.hpp: tensor views, register tiles, thread reductions, shared-memory carving (the
// row kernels' framework built on them: cute_cpp/rows.hpp).
#include <cute_cpp/tensor/register_tile.hpp>  // RegisterTile (TensorSSA)
#include <cute_cpp/tensor/tensor.hpp>         // Tensor, TensorMut, make_tensor, views, RmemTensor
#include <cute_cpp/tensor/reduce.hpp>         // warp_reduce, block_reduce (device)
#include <cute_cpp/smem/allocator.hpp>        // SmemAllocator, SmemArray
