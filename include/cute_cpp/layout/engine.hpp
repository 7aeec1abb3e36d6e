// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/engine.hpp: the layout algebra on values (LV = shape and stride DynTuples).
// Written once, constexpr, host and device; the typed API in layout.hpp calls it at run time for
// dynamic inputs and in constant evaluation for static ones. Errors are recorded in a
// diag::LayoutError (first error wins) instead of being thrown, so constant evaluation can turn
// them into a rule template's static_assert.
// The parts, one concern each:
#include <cute_cpp/layout/engine/lv.hpp>            // LV, the eng:: helpers, construction, evaluation
#include <cute_cpp/layout/engine/modes.hpp>         // flatten, coalesce, filter, select, group, take, ...
#include <cute_cpp/layout/engine/composition.hpp>   // composition, complement, inverses, max_common_*
#include <cute_cpp/layout/engine/divide.hpp>        // the divides, slicing, local_tile, local_partition
#include <cute_cpp/layout/engine/product.hpp>       // the products, tile_to_shape
#include <cute_cpp/layout/engine/recast.hpp>        // upcast, downcast
