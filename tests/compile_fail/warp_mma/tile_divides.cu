// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// 2 x 2 warps of m16n8k16 atoms need TileN to be a multiple of 2 * 16 = 32 (B loads atoms in pairs).
#include <cute_cpp/mma/mma_sync.hpp>
// expected-error {{"mma\.warp\.tile.*\n.*with TileM=64, TileN=48, TileK=32, WarpsM=2, WarpsN=2"}}
namespace cc = cute_cpp;
using Bad = cc::TiledMma<cc::warp::MmaF16BF16Op<cc::bf16>, 2, 2, 64, 48, 32>;
static_assert(Bad::threads == 128);
