// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout/layout.hpp: Layout<Shape, Stride>, RowMajor / ColMajor, and the CuTe algebra
// on typed values (CuTeDSL: cute.make_layout, size, cosize, rank, depth, coalesce, filter,
// flatten, composition, complement, right/left_inverse, *_divide, *_product, local_tile,
// local_partition, max_common_vector/layout, ...). Static in, static out: when every argument is
// static the engine runs in constant evaluation and the result is a type (C<>, Tuple<>, Layout<>);
// otherwise it runs at run time and returns DynLayout / DynTuple / int64_t values.
// The parts, one concern each:
#include <cute_cpp/layout/layout_type.hpp>   // Layout, DynLayout, RowMajor, ColMajor, LayoutLeft/Right
#include <cute_cpp/layout/apply.hpp>         // detail::apply: typed values <-> engine values
#include <cute_cpp/layout/make_layout.hpp>   // make_layout, make_identity_layout, make_ordered_layout
#include <cute_cpp/layout/queries.hpp>       // size, cosize, rank, depth, shape, stride, crd2idx, L(crd), ==
#include <cute_cpp/layout/modes.hpp>         // coalesce, filter, flatten, select, take, group, append, ...
#include <cute_cpp/layout/recast.hpp>        // upcast, downcast, recast_layout
#include <cute_cpp/layout/composition.hpp>   // composition, complement, inverses, max_common_*
#include <cute_cpp/layout/divide.hpp>        // the divides, slice, local_tile, local_partition
#include <cute_cpp/layout/product.hpp>       // the products, tile_to_shape
