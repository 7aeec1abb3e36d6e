// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout.hpp: the layout algebra (layer 1). Printing and parsing are host functions;
// they are declared in every pass so host code in a .cu file sees them.
#include <cute_cpp/layout/int.hpp>         // C<N>, Integer
#include <cute_cpp/layout/tuple.hpp>       // Tuple, Shape, Stride, Coord, Tile, _
#include <cute_cpp/layout/dyn_tuple.hpp>   // DynTuple (the value engine's tuple)
#include <cute_cpp/layout/engine.hpp>      // eng:: algebra on values
#include <cute_cpp/layout/layout.hpp>      // Layout and the algebra on typed values
#include <cute_cpp/layout/swizzle.hpp>     // Swizzle, ComposedLayout
#include <cute_cpp/layout/notation.hpp>    // to_string / parse of values (host)
#include <cute_cpp/layout/print.hpp>       // to_string of typed values, parse_layout (host)
#include <cute_cpp/layout/expression.hpp>  // evaluate_layout_expression, run_layout_batch (host)
#include <cute_cpp/layout/svg.hpp>         // to_svg, to_svg_tv (host)
