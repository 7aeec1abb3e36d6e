// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// 2 x 2 warps of m16n8k64 atoms need TileN to be a multiple of 2 * 16 = 32 (B loads atoms in pairs).
// cute-cpp-arch: 120a
#include <cute_cpp/mma/sm120_block_scaled_mma.hpp>
// expected-error {{"mma\.sm120\.tile.*\n.*with TileM=64, TileN=48, WarpsM=2, WarpsN=2"}}
namespace cc = cute_cpp;
using Bad = cc::sm120::BlockScaledTiledMma<cc::warp::MmaMXF4NVF4Op<cc::quant::ue4m3>, 2, 2, 64, 48, 128>;
static_assert(Bad::threads == 128);
