// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The pointer check the examples' host entry points share before choosing 16-byte vector paths.
#include <cstdint>

namespace cute_cpp::kernels {

/// True when p is 16-byte aligned (a null pointer counts as aligned: it is never accessed).
inline bool aligned16(void const* p) { return p == nullptr || reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace cute_cpp::kernels
