// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The compile-time budget: 500 static compositions and divides (generated from the reference
// vectors by static_vectors.cmake) in one translation unit; run by compile_budget.cmake.
#include <cute_cpp/layout/layout.hpp>

namespace cc = cute_cpp;

#include "static_vectors_budget.inc"
