// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The shared vocabulary of how matrices sit in memory, for every target and kernel family:
// OperandMajorMode for an MMA operand, LayoutEnum for a kernel's output.
// CuTeDSL: cute.nvgpu.OperandMajorMode, cutlass.utils.LayoutEnum.

namespace cute_cpp {

/// Which dimension of an MMA operand is contiguous: K (A row-major, B column-major) or M/N.
enum class OperandMajorMode { K, MN };

/// How an output matrix is laid out in global memory.
enum class LayoutEnum { RowMajor, ColMajor };

}  // namespace cute_cpp
