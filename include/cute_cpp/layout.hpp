// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/layout.hpp: the layout algebra (layer 1). Device code may include layout/layout.hpp
// and layout/swizzle.hpp alone; printing and parsing (layout/print.hpp) are host only.
#include <cute_cpp/layout/int.hpp>         // C<N>, Integer
#include <cute_cpp/layout/tuple.hpp>       // Tuple, Shape, Stride, Coord, Tile, _
#include <cute_cpp/layout/dyn_tuple.hpp>   // DynTuple (the value engine's tuple)
#include <cute_cpp/layout/engine.hpp>      // eng:: algebra on values
#include <cute_cpp/layout/layout.hpp>      // Layout and the algebra on typed values
#include <cute_cpp/layout/swizzle.hpp>     // Swizzle, ComposedLayout
#if !defined(__CUDA_ARCH__)
#include <cute_cpp/layout/notation.hpp>    // to_string / parse of values
#include <cute_cpp/layout/print.hpp>       // to_string of typed values, parse_layout
#include <cute_cpp/layout/expression.hpp>  // evaluate_layout_expression
#endif
