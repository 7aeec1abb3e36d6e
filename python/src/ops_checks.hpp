// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// What cute_cpp._ops' ops share (ops_module.cpp, ops_ssm.cpp, ops_moe.cpp, ops_decode.cpp): the
// dtypes they read, the argument checks that raise ValueError naming the rule before anything is
// allocated or launched ([ops.dtype], [ops.shape], [ops.layout], [ops.device]), and the output an
// op returns (the caller's `out`, or a new array in the caller's framework).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include "array.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cute_cpp::python::ops {

namespace nb = nanobind;
using namespace nb::literals;

/// Any DLPack array (a torch tensor read directly: array.hpp): the checks below say what each op takes.
using AnyArray = cute_cpp::python::Array;

[[noreturn]] inline void fail(char const* rule, std::string const& what) {
  throw nb::value_error((std::string("cute-cpp [") + rule + "]: " + what).c_str());
}

enum class Dtype { bf16, f16, f32, e4m3, e5m2, i32, other };

inline Dtype dtype_of(AnyArray const& a) {
  auto const d = a.dtype();
  if (d.lanes != 1) return Dtype::other;
  if (d.code == std::uint8_t(nb::dlpack::dtype_code::Bfloat) && d.bits == 16) return Dtype::bf16;
  if (d.code == std::uint8_t(nb::dlpack::dtype_code::Float) && d.bits == 16) return Dtype::f16;
  if (d.code == std::uint8_t(nb::dlpack::dtype_code::Float) && d.bits == 32) return Dtype::f32;
  if (d.code == std::uint8_t(nb::dlpack::dtype_code::Float8_E4M3FN) && d.bits == 8) return Dtype::e4m3;
  if (d.code == std::uint8_t(nb::dlpack::dtype_code::Float8_E5M2) && d.bits == 8) return Dtype::e5m2;
  if (d.code == std::uint8_t(nb::dlpack::dtype_code::Int) && d.bits == 32) return Dtype::i32;
  return Dtype::other;
}

/// The code the C entry points take for a dtype: 0 bf16, 1 f16, 2 f32.
inline int dtype_code(Dtype d) { return d == Dtype::bf16 ? 0 : d == Dtype::f16 ? 1 : 2; }

inline char const* dtype_name(Dtype d) {
  switch (d) {
    case Dtype::bf16: return "bfloat16";
    case Dtype::f16: return "float16";
    case Dtype::f32: return "float32";
    case Dtype::e4m3: return "float8_e4m3fn";
    case Dtype::e5m2: return "float8_e5m2";
    case Dtype::i32: return "int32";
    case Dtype::other: break;
  }
  return "an unsupported dtype";
}

inline std::string shape_text(AnyArray const& a) {
  std::string s = "(";
  for (std::size_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

/// Every array has `want` (one of `allowed`), the first array's dtype.
inline Dtype check_dtypes(std::vector<std::pair<char const*, AnyArray const*>> const& arrays,
                   std::initializer_list<Dtype> allowed) {
  Dtype const first = dtype_of(*arrays.front().second);
  bool ok = false;
  for (Dtype d : allowed) ok = ok || d == first;
  if (!ok) {
    std::string names;
    for (Dtype d : allowed) names += std::string(names.empty() ? "" : ", ") + dtype_name(d);
    fail("ops.dtype", std::string(arrays.front().first) + " is " + dtype_name(first) + "; this op takes " + names);
  }
  for (auto const& [name, a] : arrays)
    if (dtype_of(*a) != first)
      fail("ops.dtype", std::string(name) + " is " + dtype_name(dtype_of(*a)) + " but " + arrays.front().first +
                            " is " + dtype_name(first));
  return first;
}

inline void check_rank(char const* name, AnyArray const& a, std::size_t rank, char const* meaning) {
  if (a.ndim() != rank)
    fail("ops.shape", std::string(name) + " has shape " + shape_text(a) + "; expected " + std::to_string(rank) +
                          " dimensions " + meaning);
}

inline void check_extent(char const* name, AnyArray const& a, std::size_t dim, std::size_t want,
                         char const* meaning) {
  if (a.shape(dim) != want)
    fail("ops.shape", std::string(name) + " has shape " + shape_text(a) + "; dimension " + std::to_string(dim) +
                          " must be " + std::to_string(want) + " (" + meaning + ")");
}

inline void check_inner_contiguous(char const* name, AnyArray const& a) {
  if (a.ndim() > 0 && a.shape(a.ndim() - 1) > 1 && a.stride(a.ndim() - 1) != 1)
    fail("ops.layout", std::string(name) + "'s last dimension must be contiguous (stride 1; got " +
                           std::to_string(a.stride(a.ndim() - 1)) + ")");
}

/// Every array is on a CUDA device, the current one.
inline int check_devices(std::vector<std::pair<char const*, AnyArray const*>> const& arrays) {
  int current = 0;
  if (cudaGetDevice(&current) != cudaSuccess) current = -1;
  for (auto const& [name, a] : arrays) {
    if (a->device_type() != nb::device::cuda::value)
      fail("ops.device", std::string(name) + " is not on a CUDA device (DLPack device type " +
                             std::to_string(a->device_type()) + "); cute-cpp kernels take CUDA arrays");
    if (a->device_id() != current)
      fail("ops.device", std::string(name) + " is on CUDA device " + std::to_string(a->device_id()) +
                             " but the current device is " + std::to_string(current) +
                             "; make it current (torch.cuda.device / cupy.cuda.Device) first");
  }
  return current;
}

/// A new CUDA array of `shape` in `dtype`, as the framework asks: "torch", "cupy", "jax", or
/// "dlpack" (an object with __dlpack__).
inline nb::object new_array(std::vector<std::size_t> const& shape, nb::dlpack::dtype dtype, int device,
                     std::string const& framework) {
  // torch's own allocator: stream-ordered and cached (cudaMalloc and cudaFree cost tens of
  // microseconds a call, and cudaFree waits for the whole device).
  if (auto const* torch = cute_cpp::python::detail::torch_objects(); torch != nullptr && framework == "torch") {
    nb::list extents;
    for (std::size_t e : shape) extents.append(e);
    nb::handle const type = dtype.code == std::uint8_t(nb::dlpack::dtype_code::Bfloat) ? torch->bfloat16
                            : dtype.bits == 16                                          ? torch->float16
                                                                                        : torch->float32;
    return torch->empty(nb::tuple(extents), "dtype"_a = type, "device"_a = device);
  }
  std::size_t count = 1;
  for (std::size_t e : shape) count *= e;
  void* p = nullptr;
  cudaError_t const e = cudaMalloc(&p, std::max<std::size_t>(count * dtype.bits / 8, 1));
  if (e != cudaSuccess) throw std::runtime_error(std::string("cute-cpp: cudaMalloc: ") + cudaGetErrorString(e));
  nb::capsule owner(p, [](void* q) noexcept { (void)cudaFree(q); });
  auto const as = [&]<class Framework>(Framework) {
    return nb::cast(nb::ndarray<Framework>(p, shape.size(), shape.data(), owner, nullptr, dtype,
                                           nb::device::cuda::value, device));
  };
  if (framework == "torch") return as(nb::pytorch{});
  if (framework == "cupy") return as(nb::cupy{});
  if (framework == "jax") return as(nb::jax{});
  return nb::cast(nb::ndarray<>(p, shape.size(), shape.data(), owner, nullptr, dtype, nb::device::cuda::value, device));
}

inline void check_status(int status, char const* message) {
  if (status != 0) throw nb::value_error(message);
}

/// The op's result: the caller's `out`, or a new array of `shape` and `dtype` in the caller's
/// framework, written by `run(o, message, size)`, a C entry point's call whose nonzero status raises
/// ValueError with its message (the rule).
template <class Run>
nb::object write_output(std::optional<AnyArray> const& out, std::vector<std::size_t> const& shape,
                        nb::dlpack::dtype dtype, int device, std::string const& framework, Run&& run) {
  nb::object result = out ? out->object() : new_array(shape, dtype, device, framework);
  AnyArray const o = out ? *out : nb::cast<AnyArray>(result);
  char message[1024] = "";
  check_status(run(o, message, sizeof message), message);
  return result;
}

/// Whether a holds its elements one after another along its only dimension of more than one
/// element (a scale vector as (M,), (M, 1) or (1, N)).
inline bool packed_vector(AnyArray const& a) {
  for (std::size_t i = 0; i < a.ndim(); ++i)
    if (a.shape(i) > 1 && (a.stride(i) != 1 || a.size() != a.shape(i))) return false;
  return true;
}

/// Whether a is row-major without gaps (dimensions of one element may have any stride).
inline bool row_major(AnyArray const& a) {
  std::int64_t expected = 1;
  for (std::size_t dim = a.ndim(); dim-- > 0;) {
    if (a.shape(dim) > 1 && a.stride(dim) != expected) return false;
    expected *= std::int64_t(a.shape(dim));
  }
  return true;
}

/// Dimension dim's stride, or for a dimension of one element (whose stride a framework may give as
/// anything) the stride a row-major array of a's shape would have there.
inline std::int64_t stride_of(AnyArray const& a, std::size_t dim) {
  if (a.shape(dim) != 1) return a.stride(dim);
  std::int64_t inner = 1;
  for (std::size_t d = dim + 1; d < a.ndim(); ++d) inner *= std::int64_t(a.shape(d));
  return inner;
}

/// A stride as the scale check wants it: any positive value for a dimension of one element.
inline long long stride_or_one(AnyArray const& a, std::size_t dim) {
  return a.shape(dim) > 1 ? (long long)a.stride(dim) : 1;
}

/// `a`'s shape is `want` (an output given by the caller, or a second operand).
inline void check_shape(char const* name, AnyArray const& a, std::vector<std::size_t> const& want,
                        char const* meaning) {
  bool same = a.ndim() == want.size();
  for (std::size_t d = 0; same && d < want.size(); ++d) same = a.shape(d) == want[d];
  if (!same) {
    std::string w = "(";
    for (std::size_t d = 0; d < want.size(); ++d) w += (d ? ", " : "") + std::to_string(want[d]);
    fail("ops.shape", std::string(name) + " has shape " + shape_text(a) + "; expected " + w +
                          (want.size() == 1 ? ",)" : ")") + " (" + meaning + ")");
  }
}

/// The ops of the state-space family and of the MoE block, added to the module (ops_ssm.cpp,
/// ops_moe.cpp).
void add_ssm_ops(nb::module_& m);
void add_moe_ops(nb::module_& m);
/// Decode attention against a KV cache (ops_decode.cpp).
void add_decode_ops(nb::module_& m);

}  // namespace cute_cpp::python::ops
