// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Gathering through 4:2 reads index 6 of a 4-value register tile.
#include <cute_cpp/tensor/register_tile.hpp>
// expected-error {{"tensor\.gather\.range.*\n.*with TileSize=4, MaxIndex=6"}}
namespace cc = cute_cpp;
int f(cc::RegisterTile<int, 4> const& t) { return t.gather(cc::Layout<cc::C<4>, cc::C<2>>{})[0]; }
