// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// 8 floats per access would be 32 bytes; vector accesses move at most 16.
#include <cute_cpp/tensor/register_tile.hpp>
// expected-error {{"tensor\.vector\.width.*\n.*with Elements=8, ElemBytes=4, TileSize=8"}}
namespace cc = cute_cpp;
float f(float const* p) { return cc::RegisterTile<float, 8>::load_vector<8>(p)[0]; }
