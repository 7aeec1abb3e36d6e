// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cp.async.bulk.tensor (TMA) 1D-5D: loads (multicast, L2 cache hint), stores, reductions and L2
// prefetches, as named functions such as cp_async_bulk_tensor_2d_shared_cluster_global. The
// operand lists are generated (ctm/generated/cp_async_bulk_tensor.hpp); the bulk groups,
// tensor-map prefetch and cache policies are in cp_async_bulk.hpp. Targets: all three.
#include <ctm/common/cp_async_bulk.hpp>           // commit/wait groups, prefetch_tensormap
#include <ctm/generated/cp_async_bulk_tensor.hpp>  // the 1D-5D forms
