// SPDX-License-Identifier: Apache-2.0
// cute_cpp._ops: the kernels from Python on DLPack arrays (torch, CuPy, JAX, anything nanobind's
// ndarray takes), through the C entry points that cute_cpp_export builds (libcute_cpp_gemm,
// libcute_cpp_rmsnorm, libcute_cpp_fmha, libcute_cpp_softmax, libcute_cpp_swiglu,
// libcute_cpp_reduce, libcute_cpp_elementwise; libcute_cpp_ssm and libcute_cpp_moe in ops_ssm.cpp
// and ops_moe.cpp), so Python and C call the same checked functions. Here: what the C entry points
// cannot see, checked in this order (ops_checks.hpp), so that a bad call raises ValueError naming
// the rule before anything is allocated or launched: dtypes [ops.dtype], ranks and extents
// [ops.shape], strides [ops.layout], then that every array is on the current CUDA device
// [ops.device]. An output that is not given is allocated here (torch's allocator, or cudaMalloc
// freed with the array) and returned as the caller's framework's array (cute_cpp/ops.py says which).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "array.hpp"
#include "ops_checks.hpp"
#include "workspace.hpp"

#include <cute_cpp_elementwise.h>
#include <cute_cpp_fmha.h>
#include <cute_cpp_gemm.h>
#include <cute_cpp_reduce.h>
#include <cute_cpp_rmsnorm.h>
#include <cute_cpp_softmax.h>
#include <cute_cpp_swiglu.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using namespace cute_cpp::python::ops;

/// The stream's GEMM workspace (workspace.hpp) for an m x n x k problem, as large as
/// `bytes_of(m, n, k, kinds..., &bytes, message, size)` says: a C entry point's workspace query
/// (cute_cpp_gemm_bf16_workspace_bytes with its kind 0 plain, 1 fused epilogue;
/// cute_cpp_gemm_fp8_workspace_bytes with the scaling and the accumulation).
template <class Query, class... Kinds>
std::pair<void*, std::size_t> gemm_workspace(Query&& bytes_of, std::size_t m, std::size_t n, std::size_t k,
                                             int device, std::uintptr_t stream, Kinds... kinds) {
  if (m == 0 || n == 0 || k == 0) return {nullptr, 0};
  unsigned long long bytes = 0;
  char message[1024] = "";
  check_status(bytes_of((long long)m, (long long)n, (long long)k, kinds..., &bytes, message, sizeof message), message);
  return cute_cpp::python::StreamWorkspaces::process().get(device, stream, std::size_t(bytes));
}

/// out = x w^T for x (M, K) and w (N, K), both with contiguous rows (nn.Linear's weight).
nb::object linear(AnyArray x, AnyArray w, std::optional<AnyArray> out, std::string const& framework,
                  std::uintptr_t stream) {
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"x", &x}, {"w", &w}};
  if (out) arrays.push_back({"out", &*out});
  check_dtypes(arrays, {Dtype::bf16});
  check_rank("x", x, 2, "(M, K)");
  check_rank("w", w, 2, "(N, K)");
  check_extent("w", w, 1, x.shape(1), "K, x's last dimension");
  if (out) {
    check_rank("out", *out, 2, "(M, N)");
    check_extent("out", *out, 0, x.shape(0), "M");
    check_extent("out", *out, 1, w.shape(0), "N");
  }
  for (auto const& [name, a] : arrays) check_inner_contiguous(name, *a);
  int const device = check_devices(arrays);
  auto const [workspace, workspace_bytes] =
      gemm_workspace(cute_cpp_gemm_bf16_workspace_bytes, x.shape(0), w.shape(0), x.shape(1), device, stream, 0);
  return write_output(out, {x.shape(0), w.shape(0)}, x.dtype(), device, framework,
                      [&](AnyArray const& o, char* message, unsigned long size) {
                        return cute_cpp_gemm_bf16(x.data(), x.stride(0), w.data(), w.stride(0), o.data(), o.stride(0),
                                                  (long long)x.shape(0), (long long)w.shape(0), (long long)x.shape(1),
                                                  workspace, workspace_bytes, nullptr, reinterpret_cast<void*>(stream),
                                                  message, size);
                      });
}

/// out = act(alpha * a @ b + beta * out + bias) for a (M, K) with contiguous rows and b (K, N) the
/// transpose of an (N, K) weight with contiguous rows (K-major: b's stride along K is 1).
nb::object gemm(AnyArray a, AnyArray b, std::optional<AnyArray> bias, std::string const& activation, float alpha,
                float beta, std::optional<AnyArray> out, std::string const& framework, std::uintptr_t stream) {
  int act = -1;
  if (activation == "none") act = 0;
  else if (activation == "relu") act = 1;
  else if (activation == "gelu") act = 2;
  else if (activation == "silu") act = 3;
  else fail("ops.activation", "activation is None, \"relu\", \"gelu\" (tanh form) or \"silu\" (got \"" + activation + "\")");
  if (beta != 0.0f && !out) fail("ops.shape", "beta != 0 adds beta * out: pass out (its values are read, then overwritten)");
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"a", &a}, {"b", &b}};
  if (out) arrays.push_back({"out", &*out});
  check_dtypes(arrays, {Dtype::bf16});
  check_rank("a", a, 2, "(M, K)");
  check_rank("b", b, 2, "(K, N)");
  check_extent("b", b, 0, a.shape(1), "K, a's last dimension");
  if (out) {
    check_rank("out", *out, 2, "(M, N)");
    check_extent("out", *out, 0, a.shape(0), "M");
    check_extent("out", *out, 1, b.shape(1), "N");
  }
  if (bias) {
    if (dtype_of(*bias) != Dtype::f32) fail("ops.dtype", std::string("bias is ") + dtype_name(dtype_of(*bias)) +
                                                             "; the epilogue adds a float32 bias");
    check_rank("bias", *bias, 1, "(N,)");
    check_extent("bias", *bias, 0, b.shape(1), "N, b's last dimension");
    check_inner_contiguous("bias", *bias);
  }
  check_inner_contiguous("a", a);
  if (out) check_inner_contiguous("out", *out);
  if (b.shape(0) > 1 && b.stride(0) != 1)
    fail("ops.layout", "b must be K-major: the transpose of an (N, K) weight with contiguous rows (w.T); got strides (" +
                           std::to_string(b.stride(0)) + ", " + std::to_string(b.stride(1)) + ")");
  if (bias) arrays.push_back({"bias", &*bias});
  int const device = check_devices(arrays);
  long long const ldb = b.shape(1) > 1 ? b.stride(1) : (long long)b.shape(0);
  float const* const bias_data = bias ? static_cast<float const*>(bias->data()) : nullptr;
  auto const [workspace, workspace_bytes] =
      gemm_workspace(cute_cpp_gemm_bf16_workspace_bytes, a.shape(0), b.shape(1), a.shape(1), device, stream, 1);
  return write_output(out, {a.shape(0), b.shape(1)}, a.dtype(), device, framework,
                      [&](AnyArray const& o, char* message, unsigned long size) {
                        return cute_cpp_gemm_bf16_epilogue(
                            a.data(), a.stride(0), b.data(), ldb, o.data(), o.stride(0), (long long)a.shape(0),
                            (long long)b.shape(1), (long long)a.shape(1), alpha, beta, bias_data, act, workspace,
                            workspace_bytes, nullptr, reinterpret_cast<void*>(stream), message, size);
                      });
}

/// out (M, N) bf16 = a @ b of FP8 operands stored scaled, as torch._scaled_mm: a (M, K) e4m3 or
/// e5m2 with contiguous rows, b (K, N) e4m3 K-major (w.T of an (N, K) weight); scale_a and
/// scale_b float32: one element each (per tensor), (M, 1) and (1, N) (rowwise), or (M, ceil(K/128))
/// and (ceil(N/128), ceil(K/128)) (1x128 and 128x128 blocks, any strides); bias float32 (N,).
/// use_fast_accum: wgmma's accumulator throughout (true; the default of the per-tensor and rowwise
/// forms) or two-level accumulation (false; block scales always promote, and refuse true).
nb::object scaled_mm(AnyArray a, AnyArray b, AnyArray scale_a, AnyArray scale_b, std::optional<AnyArray> bias,
                     std::optional<bool> use_fast_accum, std::optional<AnyArray> out, std::string const& framework,
                     std::uintptr_t stream) {
  Dtype const ta = dtype_of(a), tb = dtype_of(b);
  if (ta != Dtype::e4m3 && ta != Dtype::e5m2)
    fail("ops.dtype", std::string("a is ") + dtype_name(ta) + "; this op takes float8_e4m3fn, float8_e5m2");
  if (tb != Dtype::e4m3) fail("ops.dtype", std::string("b is ") + dtype_name(tb) + "; this op takes float8_e4m3fn");
  std::vector<std::pair<char const*, AnyArray const*>> floats{{"scale_a", &scale_a}, {"scale_b", &scale_b}};
  if (bias) floats.push_back({"bias", &*bias});
  for (auto const& [name, x] : floats)
    if (dtype_of(*x) != Dtype::f32)
      fail("ops.dtype", std::string(name) + " is " + dtype_name(dtype_of(*x)) + "; scales and bias are float32");
  if (out && dtype_of(*out) != Dtype::bf16)
    fail("ops.dtype", std::string("out is ") + dtype_name(dtype_of(*out)) + "; this op writes bfloat16");
  check_rank("a", a, 2, "(M, K)");
  check_rank("b", b, 2, "(K, N)");
  check_extent("b", b, 0, a.shape(1), "K, a's last dimension");
  std::size_t const m = a.shape(0), k = a.shape(1), n = b.shape(1);
  if (out) {
    check_rank("out", *out, 2, "(M, N)");
    check_extent("out", *out, 0, m, "M");
    check_extent("out", *out, 1, n, "N");
  }
  if (bias) {
    check_rank("bias", *bias, 1, "(N,)");
    check_extent("bias", *bias, 0, n, "N");
  }
  // The scaling, from the scales' shapes (torch._scaled_mm's forms).
  std::size_t const k_blocks = (k + 127) / 128;
  int scaling = -1;
  if (scale_a.size() == 1 && scale_b.size() == 1) scaling = 0;
  else if (scale_a.size() == m && scale_b.size() == n && scale_a.ndim() <= 2 && scale_b.ndim() <= 2 &&
           (scale_a.ndim() == 1 || scale_a.shape(1) == 1) && (scale_b.ndim() == 1 || scale_b.shape(0) == 1))
    scaling = 1;
  else if (scale_a.ndim() == 2 && scale_b.ndim() == 2 && scale_a.shape(0) == m && scale_a.shape(1) == k_blocks &&
           scale_b.shape(0) == (n + 127) / 128 && scale_b.shape(1) == k_blocks)
    scaling = 2;
  if (scaling < 0)
    fail("ops.shape", "scale_a " + shape_text(scale_a) + " and scale_b " + shape_text(scale_b) +
                          " match no scaling: one element each (per tensor), (" + std::to_string(m) + ", 1) and (1, " +
                          std::to_string(n) + ") (rowwise), or (" + std::to_string(m) + ", " + std::to_string(k_blocks) +
                          ") and (" + std::to_string((n + 127) / 128) + ", " + std::to_string(k_blocks) +
                          ") (1x128 and 128x128 blocks)");
  if (scaling == 2 && bias) fail("ops.shape", "block-scaled FP8 takes no bias (add it after)");
  if (scaling == 2 && use_fast_accum.value_or(false))
    fail("ops.accumulation", "block scales promote each 128 of K into an fp32 accumulator: use_fast_accum=True is "
                             "not offered with them");
  int const accumulation = scaling == 2 || !use_fast_accum.value_or(true) ? 1 : 0;
  check_inner_contiguous("a", a);
  if (out) check_inner_contiguous("out", *out);
  if (b.shape(0) > 1 && b.stride(0) != 1)
    fail("ops.layout", "b must be K-major: the transpose of an (N, K) weight with contiguous rows (w.T); got strides (" +
                           std::to_string(b.stride(0)) + ", " + std::to_string(b.stride(1)) + ")");
  if (bias && !packed_vector(*bias)) fail("ops.layout", "bias must be contiguous");
  if (scaling == 1 && !(packed_vector(scale_a) && packed_vector(scale_b)))
    fail("ops.layout", "rowwise scales must be contiguous vectors");
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"a", &a}, {"b", &b}};
  arrays.insert(arrays.end(), floats.begin(), floats.end());
  if (out) arrays.push_back({"out", &*out});
  int const device = check_devices(arrays);
  long long const ldb = n > 1 ? (long long)b.stride(1) : (long long)k;
  auto const [workspace, workspace_bytes] =
      gemm_workspace(cute_cpp_gemm_fp8_workspace_bytes, m, n, k, device, stream, scaling, accumulation);
  float const* const bias_data = bias ? static_cast<float const*>(bias->data()) : nullptr;
  return write_output(out, {m, n}, nb::dlpack::dtype{std::uint8_t(nb::dlpack::dtype_code::Bfloat), 16, 1}, device,
                      framework, [&](AnyArray const& o, char* text, unsigned long size) {
                        return cute_cpp_gemm_fp8(
                            a.data(), a.stride(0), ta == Dtype::e5m2 ? 1 : 0, b.data(), ldb, o.data(), o.stride(0),
                            (long long)m, (long long)n, (long long)k, scaling, accumulation,
                            static_cast<float const*>(scale_a.data()), scaling == 2 ? stride_or_one(scale_a, 0) : 0,
                            scaling == 2 ? stride_or_one(scale_a, 1) : 0, static_cast<float const*>(scale_b.data()),
                            scaling == 2 ? stride_or_one(scale_b, 0) : 0, scaling == 2 ? stride_or_one(scale_b, 1) : 0,
                            bias_data, workspace, workspace_bytes, nullptr, reinterpret_cast<void*>(stream), text, size);
                      });
}

/// out (M, N) bf16 = a[rows of group g] @ b[g] for each group g, as torch._grouped_mm(a, b, offs=offs):
/// a (M, K) bf16 with contiguous rows, b (G, K, N) bf16 K-major (each b[g] the transpose of an (N, K)
/// weight with contiguous rows), offs (G,) int32, group g's rows ending at offs[g]. With swiglu, b[g]
/// interleaves blocks of 8 gate and 8 up columns and out (M, N/2) = silu(gate) * up. Rows past
/// offs[G-1] are not written. validate: wait for the GPU and raise ValueError if offs is wrong
/// (decreasing, past M); without it, wrong offsets leave out unwritten.
nb::object grouped_mm(AnyArray a, AnyArray b, AnyArray offs, bool swiglu, bool validate, std::optional<AnyArray> out,
                      std::string const& framework, std::uintptr_t stream) {
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"a", &a}, {"b", &b}};
  if (out) arrays.push_back({"out", &*out});
  check_dtypes(arrays, {Dtype::bf16});
  if (dtype_of(offs) != Dtype::i32)
    fail("ops.dtype", std::string("offs is ") + dtype_name(dtype_of(offs)) + "; this op takes int32 offsets");
  check_rank("a", a, 2, "(M, K)");
  check_rank("b", b, 3, "(G, K, N)");
  check_rank("offs", offs, 1, "(G,)");
  check_extent("b", b, 1, a.shape(1), "K, a's last dimension");
  check_extent("offs", offs, 0, b.shape(0), "G, b's groups");
  std::size_t const m = a.shape(0), k = a.shape(1), n = b.shape(2), cols = swiglu ? n / 2 : n;
  if (out) {
    check_rank("out", *out, 2, "(M, N)");
    check_extent("out", *out, 0, m, "M");
    check_extent("out", *out, 1, cols, swiglu ? "N / 2" : "N");
    check_inner_contiguous("out", *out);
  }
  check_inner_contiguous("a", a);
  if (k > 1 && b.stride(1) != 1)
    fail("ops.layout", "b must be K-major: each b[g] the transpose of an (N, K) weight with contiguous rows; got strides " +
                           std::string("(") + std::to_string(b.stride(0)) + ", " + std::to_string(b.stride(1)) + ", " +
                           std::to_string(b.stride(2)) + ")");
  if (!packed_vector(offs)) fail("ops.layout", "offs must be contiguous");
  arrays.push_back({"offs", &offs});
  int const device = check_devices(arrays);
  auto const groups = int(b.shape(0));
  unsigned long long bytes = 0;
  char text[1024] = "";
  check_status(cute_cpp_grouped_gemm_bf16_workspace_bytes((long long)m, groups, 0, &bytes, text, sizeof text), text);
  auto const [workspace, workspace_bytes] =
      cute_cpp::python::StreamWorkspaces::process().get(device, stream, std::size_t(bytes), /*use=*/1);
  long long const ldb = n > 1 ? (long long)b.stride(2) : (long long)k;
  auto result = write_output(out, {m, cols}, nb::dlpack::dtype{std::uint8_t(nb::dlpack::dtype_code::Bfloat), 16, 1},
                             device, framework, [&](AnyArray const& o, char* message, unsigned long size) {
                               return cute_cpp_grouped_gemm_bf16(
                                   a.data(), a.stride(0), b.data(), ldb, (long long)b.stride(0), o.data(),
                                   o.stride(0), (long long)m, (long long)n, (long long)k, groups,
                                   static_cast<int const*>(offs.data()), nullptr, 0, swiglu ? 1 : 0, workspace,
                                   workspace_bytes, reinterpret_cast<void*>(stream), message, size);
                             });
  if (validate)
    check_status(cute_cpp_grouped_gemm_status(workspace, reinterpret_cast<void*>(stream), text, sizeof text), text);
  return result;
}

/// y = rmsnorm(x [+ residual]) * w over the rows of a contiguous (rows, width) x.
nb::object rmsnorm(AnyArray x, AnyArray w, float eps, std::optional<AnyArray> residual, std::optional<AnyArray> out,
                   std::optional<AnyArray> residual_out, std::string const& framework, std::uintptr_t stream) {
  if (residual.has_value() != residual_out.has_value())
    fail("ops.shape", "residual and residual_out go together (the sum x + residual is written to residual_out)");
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"x", &x}, {"w", &w}};
  if (residual) arrays.push_back({"residual", &*residual});
  if (residual_out) arrays.push_back({"residual_out", &*residual_out});
  if (out) arrays.push_back({"out", &*out});
  Dtype const dtype = check_dtypes(arrays, {Dtype::bf16, Dtype::f16, Dtype::f32});
  check_rank("x", x, 2, "(rows, width)");
  check_rank("w", w, 1, "(width,)");
  check_extent("w", w, 0, x.shape(1), "width, x's last dimension");
  for (auto const& [name, a] : arrays) {
    if (a == &w) continue;
    check_rank(name, *a, 2, "(rows, width)");
    check_extent(name, *a, 0, x.shape(0), "rows");
    check_extent(name, *a, 1, x.shape(1), "width");
  }
  for (auto const& [name, a] : arrays) {
    bool const packed = a->ndim() == 1 ? (a->shape(0) <= 1 || a->stride(0) == 1)
                                       : (a->shape(1) <= 1 || a->stride(1) == 1) &&
                                             (a->shape(0) <= 1 || a->stride(0) == std::int64_t(a->shape(1)));
    if (!packed) fail("ops.layout", std::string(name) + " must be contiguous (row-major, no gaps between rows)");
  }
  int const device = check_devices(arrays);
  return write_output(out, {x.shape(0), x.shape(1)}, x.dtype(), device, framework,
                      [&](AnyArray const& y, char* message, unsigned long size) {
                        return cute_cpp_rmsnorm(dtype_code(dtype), x.data(), residual ? residual->data() : nullptr,
                                                w.data(), y.data(), residual_out ? residual_out->data() : nullptr,
                                                x.shape(0), x.shape(1), eps, reinterpret_cast<void*>(stream), message,
                                                size);
                      });
}

/// O = softmax(scale Q K^T + mask) V for q (B, Sq, Hq, D), k and v (B, Sk, Hkv, D / Dv) with any
/// strides whose last is 1; out (B, Sq, Hq, Dv).
/// With return_lse, also the LSE (float32 (B, Hq, Sq), natural log) the backward takes: (out, lse).
nb::object attention(AnyArray q, AnyArray k, AnyArray v, bool causal, float scale, int window_left,
                     int window_right, std::optional<AnyArray> out, bool return_lse, std::string const& framework,
                     std::uintptr_t stream) {
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"q", &q}, {"k", &k}, {"v", &v}};
  if (out) arrays.push_back({"out", &*out});
  Dtype const dtype = check_dtypes(arrays, {Dtype::bf16, Dtype::f16});
  for (auto const& [name, a] : arrays) check_rank(name, *a, 4, "(batch, seq, heads, head_dim)");
  check_extent("k", k, 0, q.shape(0), "batch");
  check_extent("v", v, 0, q.shape(0), "batch");
  check_extent("k", k, 3, q.shape(3), "q's head_dim");
  check_extent("v", v, 1, k.shape(1), "k's seq");
  check_extent("v", v, 2, k.shape(2), "k's heads");
  std::vector<std::size_t> const o_shape{q.shape(0), q.shape(1), q.shape(2), v.shape(3)};
  if (out) {
    for (std::size_t d = 0; d < 4; ++d) check_extent("out", *out, d, o_shape[d], "q's (batch, seq, heads), v's head_dim");
  }
  for (auto const& [name, a] : arrays) check_inner_contiguous(name, *a);
  int const device = check_devices(arrays);
  nb::object const lse = return_lse ? new_array({q.shape(0), q.shape(2), q.shape(1)}, nb::dtype<float>(), device,
                                                framework)
                                    : nb::none();
  float* const lse_data = return_lse ? static_cast<float*>(nb::cast<AnyArray>(lse).data()) : nullptr;
  nb::object result = write_output(
      out, o_shape, q.dtype(), device, framework, [&](AnyArray const& o, char* message, unsigned long size) {
        long long strides[12];
        AnyArray const* const ops[] = {&q, &k, &v, &o};
        for (int i = 0; i < 4; ++i)
          for (int d = 0; d < 3; ++d) strides[3 * i + d] = ops[i]->stride(std::size_t(d));
        return cute_cpp_fmha_forward(dtype_code(dtype), q.data(), k.data(), v.data(), o.data(), lse_data, strides,
                                     int(q.shape(0)), int(q.shape(1)), int(k.shape(1)), int(q.shape(2)),
                                     int(k.shape(2)), int(q.shape(3)), int(v.shape(3)), scale, causal ? 1 : 0,
                                     window_left, window_right, nullptr, nullptr, 0, 0,
                                     reinterpret_cast<void*>(stream), message, size);
      });
  return return_lse ? nb::object(nb::make_tuple(result, lse)) : result;
}


/// A contiguous (row-major, no gaps) array seen as rows of its last dimension: (rows, width).
std::pair<std::size_t, std::size_t> rows_of(char const* name, AnyArray const& a) {
  if (a.ndim() < 1) fail("ops.shape", std::string(name) + " has no dimensions; expected at least one");
  std::int64_t expected = 1;
  for (std::size_t d = a.ndim(); d-- > 0;) {
    if (a.shape(d) > 1 && a.stride(d) != expected)
      fail("ops.layout", std::string(name) + " must be contiguous (row-major, no gaps); dimension " +
                             std::to_string(d) + " has stride " + std::to_string(a.stride(d)) + ", expected " +
                             std::to_string(expected));
    expected *= std::int64_t(a.shape(d));
  }
  std::size_t const width = a.shape(a.ndim() - 1);
  return {width == 0 ? 0 : a.size() / width, width};
}

std::vector<std::size_t> shape_of(AnyArray const& a) {
  std::vector<std::size_t> shape(a.ndim());
  for (std::size_t d = 0; d < a.ndim(); ++d) shape[d] = a.shape(d);
  return shape;
}

/// dq, dk, dv of attention for d_o, q, out (B, Sq, Hq, D), k, v (B, Sk, Hkv, D) with any strides
/// whose last is 1 (d_o, out 16-byte aligned rows), and the forward's lse (float32 (B, Hq, Sq),
/// contiguous); dq, dk, dv are new contiguous arrays: (dq, dk, dv).
nb::object attention_backward(AnyArray d_o, AnyArray q, AnyArray k, AnyArray v, AnyArray out, AnyArray lse,
                              bool causal, float scale, bool deterministic, std::string const& framework,
                              std::uintptr_t stream) {
  std::vector<std::pair<char const*, AnyArray const*>> arrays{
      {"q", &q}, {"k", &k}, {"v", &v}, {"out", &out}, {"d_out", &d_o}};
  Dtype const dtype = check_dtypes(arrays, {Dtype::bf16, Dtype::f16});
  if (dtype_of(lse) != Dtype::f32)
    fail("ops.dtype", std::string("lse is ") + dtype_name(dtype_of(lse)) + "; the forward's LSE is float32");
  for (auto const& [name, a] : arrays) check_rank(name, *a, 4, "(batch, seq, heads, head_dim)");
  check_extent("k", k, 0, q.shape(0), "batch");
  check_extent("k", k, 3, q.shape(3), "q's head_dim");
  check_extent("v", v, 0, q.shape(0), "batch");
  check_extent("v", v, 1, k.shape(1), "k's seq");
  check_extent("v", v, 2, k.shape(2), "k's heads");
  check_extent("v", v, 3, q.shape(3), "the backward takes one head_dim for q, k and v");
  check_shape("out", out, shape_of(q), "q's, the forward's output");
  check_shape("d_out", d_o, shape_of(q), "q's, the output's gradient");
  check_shape("lse", lse, {q.shape(0), q.shape(2), q.shape(1)}, "(batch, heads, seq_q), the forward's LSE");
  (void)rows_of("lse", lse);
  for (auto const& [name, a] : arrays) check_inner_contiguous(name, *a);
  arrays.push_back({"lse", &lse});
  int const device = check_devices(arrays);
  unsigned long long ws_bytes = 0;
  char message[1024] = "";
  check_status(cute_cpp_fmha_backward_workspace_bytes(int(q.shape(0)), int(q.shape(1)), int(q.shape(2)),
                                                      int(q.shape(3)), 0, 0, deterministic ? 1 : 0, &ws_bytes, message,
                                                      sizeof message),
               message);
  nb::object const dq = new_array(shape_of(q), q.dtype(), device, framework);
  nb::object const dk = new_array(shape_of(k), k.dtype(), device, framework);
  nb::object const dv = new_array(shape_of(v), v.dtype(), device, framework);
  nb::object const workspace = new_array({std::size_t(ws_bytes / 4 + 1)}, nb::dtype<float>(), device, framework);
  AnyArray const g[] = {nb::cast<AnyArray>(dq), nb::cast<AnyArray>(dk), nb::cast<AnyArray>(dv)};
  auto const s = reinterpret_cast<cudaStream_t>(stream);
  if (q.shape(1) == 0 || k.shape(1) == 0) {  // nothing attends: every gradient is 0 (the kernels launch nothing)
    for (AnyArray const& a : g)
      if (a.size() > 0 && cudaMemsetAsync(a.data(), 0, a.size() * 2, s) != cudaSuccess)
        throw std::runtime_error("cute-cpp: cudaMemsetAsync failed");
    if (q.shape(1) > 0) fail("attention.shape", "seq_k is 0: there are no keys");
    return nb::make_tuple(dq, dk, dv);
  }
  long long strides[24];
  AnyArray const* const ops[] = {&q, &k, &v, &out, &d_o, &g[0], &g[1], &g[2]};
  for (int i = 0; i < 8; ++i)
    for (int d = 0; d < 3; ++d) strides[3 * i + d] = ops[i]->stride(std::size_t(d));
  check_status(cute_cpp_fmha_backward(dtype_code(dtype), q.data(), k.data(), v.data(), out.data(), d_o.data(),
                                      static_cast<float const*>(lse.data()), g[0].data(), g[1].data(), g[2].data(),
                                      strides, int(q.shape(0)), int(q.shape(1)), int(k.shape(1)), int(q.shape(2)),
                                      int(k.shape(2)), int(q.shape(3)), scale, causal ? 1 : 0, deterministic ? 1 : 0,
                                      nullptr, nullptr, 0, 0, nb::cast<AnyArray>(workspace).data(), ws_bytes + 4, s,
                                      message, sizeof message),
               message);
  return nb::make_tuple(dq, dk, dv);
}

/// y = softmax(x) over the last dimension of a contiguous x.
nb::object softmax(AnyArray x, std::optional<AnyArray> out, std::string const& framework, std::uintptr_t stream) {
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"x", &x}};
  if (out) arrays.push_back({"out", &*out});
  Dtype const dtype = check_dtypes(arrays, {Dtype::bf16, Dtype::f16, Dtype::f32});
  auto const [rows, width] = rows_of("x", x);
  if (out) {
    check_shape("out", *out, shape_of(x), "x's");
    (void)rows_of("out", *out);
  }
  int const device = check_devices(arrays);
  return write_output(out, shape_of(x), x.dtype(), device, framework,
                      [&](AnyArray const& y, char* message, unsigned long size) {
                        return cute_cpp_softmax(dtype_code(dtype), x.data(), y.data(), rows, width,
                                                reinterpret_cast<void*>(stream), message, size);
                      });
}

/// out (..., H) = silu(x[..., :H]) * x[..., H:] for a contiguous x (..., 2H).
nb::object swiglu(AnyArray x, std::optional<AnyArray> out, std::string const& framework, std::uintptr_t stream) {
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"x", &x}};
  if (out) arrays.push_back({"out", &*out});
  Dtype const dtype = check_dtypes(arrays, {Dtype::bf16, Dtype::f16, Dtype::f32});
  auto const [rows, width] = rows_of("x", x);
  if (width % 2 != 0)
    fail("ops.shape", "x has shape " + shape_text(x) + "; its last dimension (gate then up) must be even");
  std::vector<std::size_t> o_shape = shape_of(x);
  o_shape.back() = width / 2;
  if (out) {
    check_shape("out", *out, o_shape, "x's with the last dimension halved");
    (void)rows_of("out", *out);
  }
  int const device = check_devices(arrays);
  return write_output(out, o_shape, x.dtype(), device, framework,
                      [&](AnyArray const& o, char* message, unsigned long size) {
                        return cute_cpp_swiglu(dtype_code(dtype), x.data(), o.data(), rows, width / 2,
                                               reinterpret_cast<void*>(stream), message, size);
                      });
}

/// out (...) = the sum or maximum over the last dimension of a contiguous x, in float32.
nb::object reduce(AnyArray x, std::string const& op, std::optional<AnyArray> out, std::string const& framework,
                  std::uintptr_t stream) {
  if (op != "sum" && op != "max") fail("ops.op", "op is \"sum\" or \"max\" (got \"" + op + "\")");
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"x", &x}};
  Dtype const dtype = check_dtypes(arrays, {Dtype::bf16, Dtype::f16, Dtype::f32});
  auto const [rows, width] = rows_of("x", x);
  std::vector<std::size_t> o_shape = shape_of(x);
  o_shape.pop_back();
  if (out) {
    if (dtype_of(*out) != Dtype::f32) fail("ops.dtype", std::string("out is ") + dtype_name(dtype_of(*out)) +
                                                            "; the reductions write float32");
    check_shape("out", *out, o_shape, "x's without its last dimension");
    if (!o_shape.empty()) (void)rows_of("out", *out);
    arrays.push_back({"out", &*out});
  }
  int const device = check_devices(arrays);
  return write_output(out, o_shape, nb::dtype<float>(), device, framework,
                      [&](AnyArray const& o, char* message, unsigned long size) {
                        return cute_cpp_reduce_rows(op == "sum" ? 0 : 1, dtype_code(dtype), x.data(),
                                                    static_cast<float*>(o.data()), rows, width,
                                                    reinterpret_cast<void*>(stream), message, size);
                      });
}

/// out = a + b elementwise for contiguous arrays of one shape and dtype.
nb::object add(AnyArray a, AnyArray b, std::optional<AnyArray> out, std::string const& framework,
               std::uintptr_t stream) {
  std::vector<std::pair<char const*, AnyArray const*>> arrays{{"a", &a}, {"b", &b}};
  if (out) arrays.push_back({"out", &*out});
  Dtype const dtype = check_dtypes(arrays, {Dtype::bf16, Dtype::f16, Dtype::f32});
  check_shape("b", b, shape_of(a), "a's");
  (void)rows_of("a", a);
  (void)rows_of("b", b);
  if (out) {
    check_shape("out", *out, shape_of(a), "a's");
    (void)rows_of("out", *out);
  }
  int const device = check_devices(arrays);
  return write_output(out, shape_of(a), a.dtype(), device, framework,
                      [&](AnyArray const& o, char* message, unsigned long size) {
                        return cute_cpp_add(dtype_code(dtype), a.data(), b.data(), o.data(), a.size(),
                                            reinterpret_cast<void*>(stream), message, size);
                      });
}

}  // namespace

NB_MODULE(_ops, m) {
  m.doc() = "cute-cpp's kernels on DLPack arrays (use cute_cpp.ops, which picks the framework and stream).";
  m.def("linear", &linear, "x"_a, "w"_a, "out"_a.none(), "framework"_a, "stream"_a,
        "out = x w^T (bf16; x (M, K), w (N, K) with contiguous rows).");
  m.def("rmsnorm", &rmsnorm, "x"_a, "w"_a, "eps"_a, "residual"_a.none(), "out"_a.none(), "residual_out"_a.none(),
        "framework"_a, "stream"_a, "y = rmsnorm(x [+ residual]) * w (bf16, f16 or f32; contiguous rows).");
  m.def("attention", &attention, "q"_a, "k"_a, "v"_a, "causal"_a, "scale"_a, "window_left"_a, "window_right"_a,
        "out"_a.none(), "return_lse"_a, "framework"_a, "stream"_a,
        "O = softmax(scale Q K^T + mask) V (bf16 or f16; (batch, seq, heads, head_dim)); with return_lse (O, LSE).");
  m.def("attention_backward", &attention_backward, "d_out"_a, "q"_a, "k"_a, "v"_a, "out"_a, "lse"_a, "causal"_a,
        "scale"_a, "deterministic"_a, "framework"_a, "stream"_a,
        "(dQ, dK, dV) of attention from the output's gradient, the inputs, the output and its LSE (bf16 or f16; "
        "head dims 64 and 128).");
  m.def("gemm", &gemm, "a"_a, "b"_a, "bias"_a.none(), "activation"_a, "alpha"_a, "beta"_a, "out"_a.none(),
        "framework"_a, "stream"_a, "out = act(alpha * a @ b + beta * out + bias) (bf16; b K-major, float32 bias).");
  m.def("softmax", &softmax, "x"_a, "out"_a.none(), "framework"_a, "stream"_a,
        "y = softmax(x) over the last dimension (bf16, f16 or f32; contiguous).");
  m.def("swiglu", &swiglu, "x"_a, "out"_a.none(), "framework"_a, "stream"_a,
        "out = silu(x[..., :H]) * x[..., H:] (bf16, f16 or f32; contiguous x of last dimension 2H).");
  m.def("reduce", &reduce, "x"_a, "op"_a, "out"_a.none(), "framework"_a, "stream"_a,
        "the sum or max over the last dimension, float32 (bf16, f16 or f32 in; contiguous).");
  m.def("add", &add, "a"_a, "b"_a, "out"_a.none(), "framework"_a, "stream"_a,
        "out = a + b (bf16, f16 or f32; contiguous, one shape).");
  m.def("scaled_mm", &scaled_mm, "a"_a, "b"_a, "scale_a"_a, "scale_b"_a, "bias"_a.none(), "use_fast_accum"_a.none(),
        "out"_a.none(), "framework"_a, "stream"_a,
        "out = a @ b of FP8 operands scaled per tensor, rowwise or by 1x128 / 128x128 blocks (bf16 out).");
  m.def("grouped_mm", &grouped_mm, "a"_a, "b"_a, "offs"_a, "swiglu"_a, "validate"_a, "out"_a.none(), "framework"_a,
        "stream"_a, "out = a[rows of group g] @ b[g] per group (bf16; torch._grouped_mm's offs), optionally SwiGLU.");
  add_ssm_ops(m);
  add_moe_ops(m);
  add_decode_ops(m);
}
