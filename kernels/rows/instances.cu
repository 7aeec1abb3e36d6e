// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The row kernels' instances that instances.hpp declares: the rows library (cute_cpp::rows),
// built for every target of CUTE_CPP_ARCHS.
#include <cute_cpp/kernels/rows/instances.hpp>

namespace cute_cpp::kernels {

template void rmsnorm<bf16>(bf16 const*, bf16 const*, bf16 const*, bf16*, bf16*, std::size_t, std::size_t,
                            float, cudaStream_t);
template void layernorm<bf16>(bf16 const*, bf16 const*, bf16 const*, bf16*, std::size_t, std::size_t, float,
                              cudaStream_t);
template void softmax<bf16>(bf16 const*, bf16*, std::size_t, std::size_t, cudaStream_t);
template void swiglu<bf16>(bf16 const*, bf16*, std::size_t, std::size_t, cudaStream_t);
template void reduce_rows<RowReduction::sum, bf16>(bf16 const*, float*, std::size_t, std::size_t,
                                                   cudaStream_t);
template void reduce_rows<RowReduction::max, bf16>(bf16 const*, float*, std::size_t, std::size_t,
                                                   cudaStream_t);
template void rmsnorm<f16>(f16 const*, f16 const*, f16 const*, f16*, f16*, std::size_t, std::size_t, float,
                           cudaStream_t);
template void layernorm<f16>(f16 const*, f16 const*, f16 const*, f16*, std::size_t, std::size_t, float,
                             cudaStream_t);
template void softmax<f16>(f16 const*, f16*, std::size_t, std::size_t, cudaStream_t);
template void swiglu<f16>(f16 const*, f16*, std::size_t, std::size_t, cudaStream_t);
template void reduce_rows<RowReduction::sum, f16>(f16 const*, float*, std::size_t, std::size_t, cudaStream_t);
template void reduce_rows<RowReduction::max, f16>(f16 const*, float*, std::size_t, std::size_t, cudaStream_t);
template void rmsnorm<float>(float const*, float const*, float const*, float*, float*, std::size_t,
                             std::size_t, float, cudaStream_t);
template void layernorm<float>(float const*, float const*, float const*, float*, std::size_t, std::size_t,
                               float, cudaStream_t);
template void softmax<float>(float const*, float*, std::size_t, std::size_t, cudaStream_t);
template void swiglu<float>(float const*, float*, std::size_t, std::size_t, cudaStream_t);
template void reduce_rows<RowReduction::sum, float>(float const*, float*, std::size_t, std::size_t,
                                                    cudaStream_t);
template void reduce_rows<RowReduction::max, float>(float const*, float*, std::size_t, std::size_t,
                                                    cudaStream_t);

}  // namespace cute_cpp::kernels
