// SPDX-License-Identifier: Apache-2.0
// `_` slices tensors and layouts in device code too, also where it is passed by reference.
// cute-cpp-archs: 90a 100a 120a
#include <cute_cpp/layout.hpp>
#include <cute_cpp/tensor.hpp>

namespace cc = cute_cpp;

__global__ void columns(float const* p, float* out) {
  auto const t = cc::make_tensor(p, cc::RowMajor<4, 8>{});  // (4,8)
  auto const column = t(cc::_, 3);                           // (4)
  auto const row = cc::slice(cc::make_coord(2, cc::_), cc::RowMajor<4, 8>{});
  out[threadIdx.x] = column(1) + float(row(5));
}
