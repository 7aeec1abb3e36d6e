// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// models/qwen3/dense_ffn.cuh: a Qwen3 layer's dense SwiGLU MLP, down(silu(x Wg^T) * (x Wu^T)), on the
// interleaved gate-up weight, with the launches chosen by the pass's row count; the Qwen3 decoder
// and Qwen3-TTS's talker and code predictor run it.
#include <cute_cpp/kernels/gemm/ffn.cuh>   // ffn, FfnWeights, ffn_workspace_bytes
#include <cute_cpp/kernels/gemm/gemm.hpp>  // SimtGemmTile

#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "models/common/device_workspace.hpp"  // GrowingWorkspace
#include "models/common/linear.cuh"            // linear_tn, gated_linear_tn
#include "models/qwen3/layer_kernels.cuh"      // swiglu_interleaved

namespace cute_cpp::models {

/// Passes of at most this many rows (decode steps) run the MLP as three launches: the swapped
/// skinny GEMMs (kernels/gemm's tiles for at most 64 rows) read the weights at the memory rate, where
/// the fused SwiGLU GEMM's 128-row tiles would leave most CTAs idle. Up to
/// SimtGemmTile::skinny_rows rows the gated skinny kernel does gate-up and SwiGLU in one launch.
inline constexpr std::int64_t kSkinnyFfnRows = 64;

/// One layer's MLP weights and sizes, and the buffers a pass uses.
struct DenseFfn {
  __nv_bfloat16 const* gate_up = nullptr;  ///< (2 ffn, hidden), gate and up rows interleaved by 8
  __nv_bfloat16 const* down = nullptr;     ///< (hidden, ffn)
  std::int64_t hidden = 0, ffn = 0;
  __nv_bfloat16* h = nullptr;        ///< [rows, ffn]: silu(gate) * up
  __nv_bfloat16* gate_up_out = nullptr;  ///< [min(rows, kSkinnyFfnRows), 2 ffn]: the product before SwiGLU
};

/// out (t, hidden) = the MLP of x (t, hidden). `weights`: kernels::IndependentOperand::B where no kernel
/// of the stream writes the weights (their first loads may start before the wait for the kernel
/// before, under programmatic launch). `mark(name)` is called after each launch of a decode-sized
/// pass ("gate-up gemm + swiglu", or "gate-up gemm" and "swiglu", then "down gemm"): a profiler's hook.
template <class Mark>
void dense_swiglu_ffn(__nv_bfloat16 const* x, DenseFfn const& f, __nv_bfloat16* out, std::int64_t t,
                      GrowingWorkspace& workspace, cudaStream_t stream, kernels::IndependentOperand weights,
                      Mark const& mark) {
  if (t <= kernels::SimtGemmTile::skinny_rows) {  // gate-up and SwiGLU in the gated skinny kernel
    gated_linear_tn(x, f.gate_up, f.h, t, f.ffn, f.hidden, workspace, stream, weights);
    mark("gate-up gemm + swiglu");
    linear_tn(f.h, f.down, out, t, f.hidden, f.ffn, workspace, stream, weights);
    mark("down gemm");
  } else if (t <= kSkinnyFfnRows) {  // the gate-up product through the swapped skinny GEMM, then SwiGLU
    linear_tn(x, f.gate_up, f.gate_up_out, t, 2 * f.ffn, f.hidden, workspace, stream, weights);
    mark("gate-up gemm");
    swiglu_interleaved(f.gate_up_out, f.h, t, int(f.ffn), stream);
    mark("swiglu");
    linear_tn(f.h, f.down, out, t, f.hidden, f.ffn, workspace, stream, weights);
    mark("down gemm");
  } else {  // the fused SwiGLU GEMM and the down GEMM
    kernels::FfnWeights w;
    w.gate_up = f.gate_up, w.down = f.down;
    std::size_t const bytes = kernels::ffn_workspace_bytes(std::size_t(t), std::size_t(f.hidden), std::size_t(f.ffn));
    kernels::ffn(x, w, f.h, out, std::size_t(t), std::size_t(f.hidden), std::size_t(f.ffn),
                 workspace.ensure(bytes, stream), bytes, stream);
  }
}

}  // namespace cute_cpp::models
