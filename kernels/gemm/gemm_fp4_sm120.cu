// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
// The sm_120a FP4 entry points (gemm_fp4.hpp): the quantizer, the GEMM and the GEMV, for NVFP4 and
// MXFP4. Built for 120a alone (the file name), into cute_cpp::gemm_fp4.
#include "gemm_fp4.hpp"
#include "gemm_fp4_sm120.cuh"
#include "quantize_fp4_sm120.cuh"

#include <cute_cpp/host/error.hpp>   // cuda_check
#include <cute_cpp/host/launch.hpp>  // launch, LaunchConfig

#include <algorithm>

namespace cute_cpp::kernels {

namespace {

template <class Plan>
void launch_fp4(Fp4GemmArguments const& g, char const* name, cudaStream_t stream) {
  Fp4GemmParams const p{g.a.data, g.b.data, g.a.scales, g.b.scales, g.a.global_scale, g.b.global_scale,
                        g.d,      int(g.m), int(g.n),   int(g.k),   g.ldd};
  host::LaunchConfig config;
  config.grid = dim3(unsigned((g.n + Plan::block_n - 1) / Plan::block_n), unsigned((g.m + Plan::block_m - 1) / Plan::block_m));
  config.block = dim3(Plan::threads);
  config.smem_bytes = Plan::smem_bytes;
  config.stream = stream;
  host::launch(&gemm_fp4_kernel<Plan>, name, config, p);
}

template <template <Fp4Format> class Plan>
void launch_by_format(Fp4Format format, Fp4GemmArguments const& g, char const* name, cudaStream_t stream) {
  if (format == Fp4Format::nvfp4) launch_fp4<Plan<Fp4Format::nvfp4>>(g, name, stream);
  else launch_fp4<Plan<Fp4Format::mxfp4>>(g, name, stream);
}

}  // namespace

void run_gemm_fp4(Fp4Format format, Fp4GemmArguments const& args, cudaStream_t stream) {
  detail::check_gemm_fp4("run_gemm_fp4", args, std::int64_t{1} << 30, stream);
  if (args.m == 0 || args.n == 0) return;
  launch_by_format<GemmFp4TilePlan>(format, args, "gemm_fp4", stream);
}

void run_gemv_fp4(Fp4Format format, Fp4GemmArguments const& args, cudaStream_t stream) {
  detail::check_gemm_fp4("run_gemv_fp4", args, fp4_gemv_max_m, stream);
  if (args.m == 0 || args.n == 0) return;
  launch_by_format<GemvFp4TilePlan>(format, args, "gemv_fp4", stream);
}

void quantize_fp4(Fp4Format format, __nv_bfloat16 const* x, std::int64_t ldx, std::int64_t rows, std::int64_t k,
                  Fp4Quantized const& out, cudaStream_t stream) {
  detail::check_quantize_fp4(format, x, ldx, rows, k, out, stream);
  if (rows == 0) return;
  host::LaunchConfig config;
  config.block = dim3(quantize_fp4_threads);
  config.stream = stream;
  if (format == Fp4Format::nvfp4) {
    host::cuda_check(cudaMemsetAsync(out.amax_workspace, 0, sizeof(float), stream), "cudaMemsetAsync(amax_workspace)");
    std::int64_t const pieces = rows * (k / 8);
    config.grid = dim3(unsigned(std::min<std::int64_t>((pieces + quantize_fp4_threads - 1) / quantize_fp4_threads, 1024)));
    host::launch(&fp4_amax_kernel<>, "fp4_amax", config, x, ldx, rows, k, out.amax_workspace);
  }
  std::int64_t const blocks = rows * (k / fp4_scale_block(format));
  config.grid = dim3(unsigned((blocks + quantize_fp4_threads - 1) / quantize_fp4_threads));
  if (format == Fp4Format::nvfp4) host::launch(&quantize_fp4_kernel<Fp4Format::nvfp4>, "quantize_nvfp4", config, x, ldx, rows, k, out);
  else host::launch(&quantize_fp4_kernel<Fp4Format::mxfp4>, "quantize_mxfp4", config, x, ldx, rows, k, out);
}

}  // namespace cute_cpp::kernels
