// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// reduce_rows, sum and max (reduce.cuh) in bf16, f16 and f32, as instances.hpp declares them: part of
// the rows library (cute_cpp::rows), a file a family so a program links only the kernels it calls.
#include <cute_cpp/kernels/rows/instances.hpp>

namespace cute_cpp::kernels {

template void reduce_rows<RowReduction::sum, bf16>(bf16 const*, float*, std::size_t, std::size_t,
                                                   cudaStream_t);
template void reduce_rows<RowReduction::max, bf16>(bf16 const*, float*, std::size_t, std::size_t,
                                                   cudaStream_t);
template void reduce_rows<RowReduction::sum, f16>(f16 const*, float*, std::size_t, std::size_t, cudaStream_t);
template void reduce_rows<RowReduction::max, f16>(f16 const*, float*, std::size_t, std::size_t, cudaStream_t);
template void reduce_rows<RowReduction::sum, float>(float const*, float*, std::size_t, std::size_t,
                                                    cudaStream_t);
template void reduce_rows<RowReduction::max, float>(float const*, float*, std::size_t, std::size_t,
                                                    cudaStream_t);

}  // namespace cute_cpp::kernels
