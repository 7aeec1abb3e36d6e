// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// The row kernels' entry points for bf16, f16 and f32, compiled once in the rows library
// (cute_cpp::rows: <family>_instances.cu, for every target of its CUTE_CPP_ARCHS). A translation
// unit that includes this header instead of the row headers links those instances rather than
// compiling the same kernels again (rmsnorm<bf16> alone is nine kernels a target). The row headers
// stay header-only, for a project built for targets the installed library was not built for.
#include <cute_cpp/kernels/rows/layernorm.cuh>
#include <cute_cpp/kernels/rows/reduce.cuh>
#include <cute_cpp/kernels/rows/rmsnorm.cuh>
#include <cute_cpp/kernels/rows/softmax.cuh>
#include <cute_cpp/kernels/rows/swiglu.cuh>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>

namespace cute_cpp::kernels {

// Each line here has its definition in <family>_instances.cu.
extern template void rmsnorm<bf16>(bf16 const*, bf16 const*, bf16 const*, bf16*, bf16*, std::size_t,
                                   std::size_t, float, cudaStream_t);
extern template void layernorm<bf16>(bf16 const*, bf16 const*, bf16 const*, bf16*, std::size_t, std::size_t,
                                     float, cudaStream_t);
extern template void softmax<bf16>(bf16 const*, bf16*, std::size_t, std::size_t, cudaStream_t);
extern template void swiglu<bf16>(bf16 const*, bf16*, std::size_t, std::size_t, cudaStream_t);
extern template void reduce_rows<RowReduction::sum, bf16>(bf16 const*, float*, std::size_t, std::size_t,
                                                          cudaStream_t);
extern template void reduce_rows<RowReduction::max, bf16>(bf16 const*, float*, std::size_t, std::size_t,
                                                          cudaStream_t);
extern template void rmsnorm<f16>(f16 const*, f16 const*, f16 const*, f16*, f16*, std::size_t, std::size_t,
                                  float, cudaStream_t);
extern template void layernorm<f16>(f16 const*, f16 const*, f16 const*, f16*, std::size_t, std::size_t, float,
                                    cudaStream_t);
extern template void softmax<f16>(f16 const*, f16*, std::size_t, std::size_t, cudaStream_t);
extern template void swiglu<f16>(f16 const*, f16*, std::size_t, std::size_t, cudaStream_t);
extern template void reduce_rows<RowReduction::sum, f16>(f16 const*, float*, std::size_t, std::size_t,
                                                         cudaStream_t);
extern template void reduce_rows<RowReduction::max, f16>(f16 const*, float*, std::size_t, std::size_t,
                                                         cudaStream_t);
extern template void rmsnorm<float>(float const*, float const*, float const*, float*, float*, std::size_t,
                                    std::size_t, float, cudaStream_t);
extern template void layernorm<float>(float const*, float const*, float const*, float*, std::size_t,
                                      std::size_t, float, cudaStream_t);
extern template void softmax<float>(float const*, float*, std::size_t, std::size_t, cudaStream_t);
extern template void swiglu<float>(float const*, float*, std::size_t, std::size_t, cudaStream_t);
extern template void reduce_rows<RowReduction::sum, float>(float const*, float*, std::size_t, std::size_t,
                                                           cudaStream_t);
extern template void reduce_rows<RowReduction::max, float>(float const*, float*, std::size_t, std::size_t,
                                                           cudaStream_t);

}  // namespace cute_cpp::kernels
