// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The few macros cute-cpp allows (attributes only), and the target gate every header passes
// through. Plain g++ sees no CUDA attributes, so layout/ compiles without nvcc.
#include <ctm/target.hpp>

#if defined(__CUDACC__)
#  define CUTE_CPP_HD __host__ __device__
#  define CUTE_CPP_DEVICE __device__
#else
#  define CUTE_CPP_HD
#  define CUTE_CPP_DEVICE
#endif
