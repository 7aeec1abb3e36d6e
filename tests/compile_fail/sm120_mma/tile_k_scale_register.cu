// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// MXFP4 with a K tile of 64 fills half of a 32-bit scale register (2 factors of 4): K tile 128 needed.
// cute-cpp-arch: 120a
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
// expected-error {{"mma\.sm120\.tile-k.*\n.*with TileK=64, SFVecSize=32"}}
namespace cc = cute_cpp;
using Bad = cc::sm120::BlockScaledTiledMma<cc::warp::MmaMXF4Op<>, 2, 2, 64, 64, 64>;
static_assert(Bad::threads == 128);
