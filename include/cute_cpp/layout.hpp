// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout.hpp: the layout algebra (layer 1). Printing and parsing are host functions;
// they are declared in every pass so host code in a .cu file sees them. The tools' host-only
// code (the expression evaluator, SVG pictures) is not included here: include
// cute_cpp/layout/expression.hpp or cute_cpp/layout/svg.hpp where it is needed.
#include <cute_cpp/layout/int.hpp>         // C<N>, Integer
#include <cute_cpp/layout/tuple.hpp>       // Tuple, Shape, Stride, Coord, Tile, _
#include <cute_cpp/layout/dyn_tuple.hpp>   // DynTuple (the value engine's tuple)
#include <cute_cpp/layout/engine.hpp>      // eng:: algebra on values
#include <cute_cpp/layout/layout.hpp>      // Layout and the algebra on typed values
#include <cute_cpp/layout/swizzle.hpp>     // Swizzle, ComposedLayout
#include <cute_cpp/layout/notation.hpp>    // to_string / parse of values (host)
#include <cute_cpp/layout/print.hpp>       // to_string of typed values, parse_layout (host)
