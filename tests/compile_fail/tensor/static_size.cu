// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// Register storage needs a static layout; a run-time extent is rejected.
#include <cute_cpp/tensor/tensor.hpp>
// expected-error {{"tensor\.static-size.*\n.*with Static=false"}}
namespace cc = cute_cpp;
float f(int n) { return cc::make_rmem_tensor<float>(cc::make_layout(cc::make_shape(n, cc::C<4>{}))).storage[0]; }
