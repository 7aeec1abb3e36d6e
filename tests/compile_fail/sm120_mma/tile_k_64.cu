// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The atom's K is 64: a K tile of 96 is not a whole number of atoms.
// cute-cpp-arch: 120a
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
// expected-error {{"mma\.sm120\.tile-k.*\n.*with TileK=96, SFVecSize=16"}}
namespace cc = cute_cpp;
using Bad = cc::sm120::BlockScaledTiledMma<cc::warp::MmaMXF4NVF4Op<cc::quant::ue4m3>, 2, 2, 64, 64, 96>;
static_assert(Bad::threads == 128);
