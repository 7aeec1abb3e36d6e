// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp/copy.hpp: copy atoms and tiled copies.
#include <cute_cpp/copy/atoms.hpp>       // CopyUniversalOp, CopyG2SOp, LdMatrix8x8x16bOp, StMatrix8x8x16bOp, CopyAtom
#include <cute_cpp/copy/tiled_copy.hpp>  // TiledCopy, ThrCopy, copy, copy_if, copy_g2s/s2g/s2r/r2s
#include <cute_cpp/copy/tma_copy.hpp>    // TmaCopy (load, load_multicast, store, prefetch_descriptor)
