// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: 2026 cute-cpp authors
#pragma once
// cute_cpp._ops's view of an array argument: a torch tensor read directly (its data pointer,
// sizes, strides, dtype and device, a few attribute reads), anything else through DLPack
// (nanobind's ndarray: torch without the fast path, CuPy, JAX, any __dlpack__ object).
// NOTE: measured on the H200 (2026-12-02), torch's Tensor.__dlpack__ cost 2.9 us a tensor, most of
// a small linear's 17 us per call against torch.matmul's 14; the direct read is a fraction of that.
// A tensor the direct read would misread goes through DLPack and meets its rules (and errors)
// unchanged: one that is not strided, has more than 8 dimensions, or whose dtype is not one the
// ops take (bfloat16, float16, float32, float8_e4m3fn, float8_e5m2). A tensor that requires grad
// is read as DLPack reads it (torch 2.11 exports it): the ops are not differentiable
// (cute_cpp.torch registers them for tracing, not for autograd).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace cute_cpp::python {

namespace nb = nanobind;

/// An array argument of an op: the object (kept alive), its data, dtype, device and extents.
class Array {
 public:
  static constexpr std::size_t max_rank = 8;

  Array() = default;
  /// Through DLPack: `a` made from `object`.
  Array(nb::ndarray<> const& a, nb::handle object) : object_(nb::borrow(object)), ndarray_(a) {
    data_ = a.data();
    dtype_ = a.dtype();
    device_type_ = a.device_type();
    device_id_ = a.device_id();
  }

  /// A torch tensor read directly, or none when it must go through DLPack (see the file comment).
  static std::optional<Array> from_torch(nb::handle tensor);

  [[nodiscard]] nb::object const& object() const { return object_; }
  [[nodiscard]] void* data() const { return data_; }
  [[nodiscard]] nb::dlpack::dtype dtype() const { return dtype_; }
  [[nodiscard]] std::int32_t device_type() const { return device_type_; }
  [[nodiscard]] std::int32_t device_id() const { return device_id_; }
  [[nodiscard]] std::size_t ndim() const { return ndarray_ ? ndarray_->ndim() : rank_; }
  [[nodiscard]] std::size_t shape(std::size_t i) const { return ndarray_ ? ndarray_->shape(i) : std::size_t(shape_[i]); }
  [[nodiscard]] std::int64_t stride(std::size_t i) const { return ndarray_ ? ndarray_->stride(i) : stride_[i]; }
  [[nodiscard]] std::size_t size() const {
    std::size_t n = 1;
    for (std::size_t i = 0; i < ndim(); ++i) n *= shape(i);
    return n;
  }

 private:
  nb::object object_;
  std::optional<nb::ndarray<>> ndarray_;  // the DLPack route's view; none for a tensor read directly
  void* data_ = nullptr;
  nb::dlpack::dtype dtype_{};
  std::int32_t device_type_ = 0, device_id_ = 0;
  std::size_t rank_ = 0;
  std::array<std::int64_t, max_rank> shape_{}, stride_{};
};

namespace detail {

/// torch's objects the direct read compares with, found once torch is imported (the ops never
/// import it themselves: an op that gets no tensor needs no torch).
struct Torch {
  nb::handle tensor_type, strided, bfloat16, float16, float32, empty;
  nb::handle float8_e4m3fn, float8_e5m2;  // none where this torch has no FP8
};

inline Torch const* torch_objects() {
  static std::optional<Torch> torch;
  if (!torch) {
    nb::dict const modules = nb::borrow<nb::dict>(PySys_GetObject("modules"));
    if (!modules.contains("torch")) return nullptr;
    nb::object const t = modules["torch"];
    // Kept for the process: the module outlives every call into this one.
    auto keep = [](nb::object o) { return o.release(); };
    torch = Torch{keep(t.attr("Tensor")),  keep(t.attr("strided")), keep(t.attr("bfloat16")),
                  keep(t.attr("float16")), keep(t.attr("float32")), keep(t.attr("empty")),
                  keep(nb::getattr(t, "float8_e4m3fn", nb::none())), keep(nb::getattr(t, "float8_e5m2", nb::none()))};
  }
  return &*torch;
}

}  // namespace detail

inline std::optional<Array> Array::from_torch(nb::handle tensor) {
  detail::Torch const* torch = detail::torch_objects();
  if (torch == nullptr || !PyObject_TypeCheck(tensor.ptr(), reinterpret_cast<PyTypeObject*>(torch->tensor_type.ptr())))
    return std::nullopt;
  nb::object const dtype = tensor.attr("dtype");
  nb::dlpack::dtype dt{};
  auto const float_type = [](nb::dlpack::dtype_code code, std::uint8_t bits) {
    return nb::dlpack::dtype{std::uint8_t(code), bits, 1};
  };
  if (dtype.is(torch->bfloat16)) dt = float_type(nb::dlpack::dtype_code::Bfloat, 16);
  else if (dtype.is(torch->float16)) dt = float_type(nb::dlpack::dtype_code::Float, 16);
  else if (dtype.is(torch->float32)) dt = float_type(nb::dlpack::dtype_code::Float, 32);
  else if (!torch->float8_e4m3fn.is_none() && dtype.is(torch->float8_e4m3fn))
    dt = float_type(nb::dlpack::dtype_code::Float8_E4M3FN, 8);
  else if (!torch->float8_e5m2.is_none() && dtype.is(torch->float8_e5m2))
    dt = float_type(nb::dlpack::dtype_code::Float8_E5M2, 8);
  else return std::nullopt;
  if (!tensor.attr("layout").is(torch->strided)) return std::nullopt;
  nb::object const sizes = tensor.attr("shape");
  std::size_t const rank = nb::len(sizes);
  if (rank > max_rank) return std::nullopt;
  Array a;
  a.object_ = nb::borrow(tensor);
  a.dtype_ = dt;
  a.rank_ = rank;
  nb::object const strides = tensor.attr("stride")();
  for (std::size_t i = 0; i < rank; ++i) {
    a.shape_[i] = nb::cast<std::int64_t>(sizes[i]);
    a.stride_[i] = nb::cast<std::int64_t>(strides[i]);
  }
  a.data_ = reinterpret_cast<void*>(nb::cast<std::uintptr_t>(tensor.attr("data_ptr")()));
  bool const cuda = nb::cast<bool>(tensor.attr("is_cuda"));
  a.device_type_ = cuda ? nb::device::cuda::value : nb::device::cpu::value;
  a.device_id_ = cuda ? nb::cast<std::int32_t>(tensor.attr("get_device")()) : 0;
  return a;
}

}  // namespace cute_cpp::python

namespace nanobind::detail {

/// Array from Python: a torch tensor directly where it may be, else any DLPack array.
template <>
struct type_caster<cute_cpp::python::Array> {
  NB_TYPE_CASTER(cute_cpp::python::Array, const_name("ndarray"))

  bool from_python(handle src, uint8_t flags, cleanup_list* cleanup) noexcept {
    try {
      if (auto a = cute_cpp::python::Array::from_torch(src)) {
        value = std::move(*a);
        return true;
      }
    } catch (...) {  // an attribute torch does not have here: the DLPack route reads it, or says why not
    }
    make_caster<ndarray<>> inner;
    if (!inner.from_python(src, flags, cleanup)) return false;
    value = cute_cpp::python::Array(inner.value, src);
    return true;
  }

  static handle from_cpp(cute_cpp::python::Array const& a, rv_policy, cleanup_list*) noexcept {
    return a.object().inc_ref();
  }
};

}  // namespace nanobind::detail
