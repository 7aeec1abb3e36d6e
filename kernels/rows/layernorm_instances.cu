// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// layernorm (layernorm.cuh) in bf16, f16 and f32, as instances.hpp declares them: part of
// the rows library (cute_cpp::rows), a file a family so a program links only the kernels it calls.
#include <cute_cpp/kernels/rows/instances.hpp>

namespace cute_cpp::kernels {

template void layernorm<bf16>(bf16 const*, bf16 const*, bf16 const*, bf16*, std::size_t, std::size_t, float,
                              cudaStream_t);
template void layernorm<f16>(f16 const*, f16 const*, f16 const*, f16*, std::size_t, std::size_t, float,
                             cudaStream_t);
template void layernorm<float>(float const*, float const*, float const*, float*, std::size_t, std::size_t,
                               float, cudaStream_t);

}  // namespace cute_cpp::kernels
